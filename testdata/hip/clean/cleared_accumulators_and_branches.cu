// Clean: accumulators cleared before the kernels that update them, launchers run on filled
// buffers, a memset that covers what the kernel reads, and pointers allocated on every path that
// reaches their use (or tested against the same condition).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define NUM_BINS 256

__global__ void blockSums(const float* in, float* total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(total, in[i]);
    }
}

__global__ void histogram(const unsigned char* in, unsigned int* bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[in[i]], 1u);
    }
}

__global__ void scaleInPlace(float* data, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] *= s;
    }
}

__global__ void resetAndCount(unsigned int* counter, const float* in, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        *counter = 0;
        for (int k = 0; k < n; ++k) {
            if (in[k] > 0.5f) *counter += 1;
        }
    }
}

__global__ void countPerGroup(const int* key, int* counts, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(counts + key[i], 1);
    }
}

__global__ void addRows(const float* in, float* rowSums, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        *(rowSums + r) = 0.0f;
        for (int c = 0; c < cols; ++c) {
            *(rowSums + r) += in[r * cols + c];
        }
    }
}

static void launchScale(float* d_data, float s, int n) {
    scaleInPlace<<<(n + 255) / 256, 256>>>(d_data, s, n);
    HIP_CHECK(hipGetLastError());
}

static void accumulate(const std::vector<float>& h_in, const std::vector<unsigned char>& h_pixels) {
    const int n = static_cast<int>(h_in.size());
    float *d_in = nullptr, *d_total = nullptr;
    unsigned char* d_pixels = nullptr;
    unsigned int *d_bins = nullptr, *d_count = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_total, sizeof(float)));
    HIP_CHECK(hipMalloc(&d_pixels, n * sizeof(unsigned char)));
    HIP_CHECK(hipMalloc(&d_bins, NUM_BINS * sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&d_count, sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_pixels, h_pixels.data(), n * sizeof(unsigned char), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_total, 0, sizeof(float)));
    HIP_CHECK(hipMemset(d_bins, 0, NUM_BINS * sizeof(unsigned int)));

    launchScale(d_in, 0.5f, n);
    blockSums<<<(n + 255) / 256, 256>>>(d_in, d_total, n);
    HIP_CHECK(hipGetLastError());
    histogram<<<(n + 255) / 256, 256>>>(d_pixels, d_bins, n);
    HIP_CHECK(hipGetLastError());
    resetAndCount<<<1, 1>>>(d_count, d_in, n);
    HIP_CHECK(hipGetLastError());

    // counters cleared before the atomic updates; row sums the kernel starts at zero itself
    const int groups = 64;
    std::vector<int> h_key(n);
    for (int i = 0; i < n; ++i) h_key[i] = i % groups;
    int* d_key = nullptr;
    int* d_counts = nullptr;
    float* d_rowSums = nullptr;
    HIP_CHECK(hipMalloc(&d_key, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_counts, groups * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_rowSums, groups * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_key, h_key.data(), n * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_counts, 0, groups * sizeof(int)));
    countPerGroup<<<(n + 255) / 256, 256>>>(d_key, d_counts, n);
    HIP_CHECK(hipGetLastError());
    addRows<<<1, groups>>>(d_in, d_rowSums, groups, n / groups);
    HIP_CHECK(hipGetLastError());

    float total = 0.0f;
    HIP_CHECK(hipMemcpy(&total, d_total, sizeof(float), hipMemcpyDeviceToHost));
    printf("total = %f\n", total);
    HIP_CHECK(hipFree(d_key));
    HIP_CHECK(hipFree(d_counts));
    HIP_CHECK(hipFree(d_rowSums));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_total));
    HIP_CHECK(hipFree(d_pixels));
    HIP_CHECK(hipFree(d_bins));
    HIP_CHECK(hipFree(d_count));
}

static void timeAllocation(size_t bytes, int kind) {
    int* buffer = nullptr;
    if (kind == 0)
        HIP_CHECK(hipMalloc(&buffer, bytes));
    else if (kind == 1)
        HIP_CHECK(hipMallocManaged(&buffer, bytes));
    if (buffer) HIP_CHECK(hipFree(buffer));
}

static void upload(const std::vector<int>& h_data, bool pinned, bool staged) {
    const int n = static_cast<int>(h_data.size());
    int* d_data;
    int* h_staging;
    if (pinned) {
        HIP_CHECK(hipMalloc(&d_data, n * sizeof(int)));
    } else {
        HIP_CHECK(hipMallocManaged(&d_data, n * sizeof(int)));
    }
    if (staged) HIP_CHECK(hipHostMalloc(&h_staging, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_data, h_data.data(), n * sizeof(int), hipMemcpyHostToDevice));
    if (staged) {
        HIP_CHECK(hipMemcpy(h_staging, d_data, n * sizeof(int), hipMemcpyDeviceToHost));
        HIP_CHECK(hipHostFree(h_staging));
    }
    HIP_CHECK(hipFree(d_data));
}

static int readBack(int n, int mode) {
    int* d_value;
    if (mode == 0) {
        HIP_CHECK(hipMalloc(&d_value, n * sizeof(int)));
    } else {
        fprintf(stderr, "unsupported mode %d\n", mode);
        return -1;
    }
    HIP_CHECK(hipMemset(d_value, 0, n * sizeof(int)));
    int first = 0;
    HIP_CHECK(hipMemcpy(&first, d_value, sizeof(int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_value));
    return first;
}

int main(int argc, char** argv) {
    const int n = 1 << 20;
    std::vector<float> in(n, 1.0f);
    std::vector<unsigned char> pixels(n, 3);
    accumulate(in, pixels);
    timeAllocation(1 << 20, argc > 1 ? atoi(argv[1]) : 0);
    std::vector<int> data(1 << 16, 7);
    upload(data, argc > 2, argc > 3);
    printf("%d\n", readBack(16, argc > 4 ? 1 : 0));
    return 0;
}
