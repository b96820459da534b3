// Clean: accumulators cleared before the kernels that update them, launchers run on filled
// buffers, a memset that covers what the kernel reads, and pointers allocated on every path that
// reaches their use (or tested against the same condition).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"

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
    CUDA_CHECK(cudaGetLastError());
}

static void accumulate(const std::vector<float>& h_in, const std::vector<unsigned char>& h_pixels) {
    const int n = static_cast<int>(h_in.size());
    float *d_in = nullptr, *d_total = nullptr;
    unsigned char* d_pixels = nullptr;
    unsigned int *d_bins = nullptr, *d_count = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_pixels, n * sizeof(unsigned char)));
    CUDA_CHECK(cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_count, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_pixels, h_pixels.data(), n * sizeof(unsigned char), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_bins, 0, NUM_BINS * sizeof(unsigned int)));

    launchScale(d_in, 0.5f, n);
    blockSums<<<(n + 255) / 256, 256>>>(d_in, d_total, n);
    CUDA_CHECK(cudaGetLastError());
    histogram<<<(n + 255) / 256, 256>>>(d_pixels, d_bins, n);
    CUDA_CHECK(cudaGetLastError());
    resetAndCount<<<1, 1>>>(d_count, d_in, n);
    CUDA_CHECK(cudaGetLastError());

    // counters cleared before the atomic updates; row sums the kernel starts at zero itself
    const int groups = 64;
    std::vector<int> h_key(n);
    for (int i = 0; i < n; ++i) h_key[i] = i % groups;
    int* d_key = nullptr;
    int* d_counts = nullptr;
    float* d_rowSums = nullptr;
    CUDA_CHECK(cudaMalloc(&d_key, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_counts, groups * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_rowSums, groups * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_key, h_key.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_counts, 0, groups * sizeof(int)));
    countPerGroup<<<(n + 255) / 256, 256>>>(d_key, d_counts, n);
    CUDA_CHECK(cudaGetLastError());
    addRows<<<1, groups>>>(d_in, d_rowSums, groups, n / groups);
    CUDA_CHECK(cudaGetLastError());

    float total = 0.0f;
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
    printf("total = %f\n", total);
    CUDA_CHECK(cudaFree(d_key));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaFree(d_rowSums));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_total));
    CUDA_CHECK(cudaFree(d_pixels));
    CUDA_CHECK(cudaFree(d_bins));
    CUDA_CHECK(cudaFree(d_count));
}

static void timeAllocation(size_t bytes, int kind) {
    int* buffer = nullptr;
    if (kind == 0)
        CUDA_CHECK(cudaMalloc(&buffer, bytes));
    else if (kind == 1)
        CUDA_CHECK(cudaMallocManaged(&buffer, bytes));
    if (buffer) CUDA_CHECK(cudaFree(buffer));
}

static void upload(const std::vector<int>& h_data, bool pinned, bool staged) {
    const int n = static_cast<int>(h_data.size());
    int* d_data;
    int* h_staging;
    if (pinned) {
        CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(int)));
    } else {
        CUDA_CHECK(cudaMallocManaged(&d_data, n * sizeof(int)));
    }
    if (staged) CUDA_CHECK(cudaMallocHost(&h_staging, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_data, h_data.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    if (staged) {
        CUDA_CHECK(cudaMemcpy(h_staging, d_data, n * sizeof(int), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaFreeHost(h_staging));
    }
    CUDA_CHECK(cudaFree(d_data));
}

static int readBack(int n, int mode) {
    int* d_value;
    if (mode == 0) {
        CUDA_CHECK(cudaMalloc(&d_value, n * sizeof(int)));
    } else {
        fprintf(stderr, "unsupported mode %d\n", mode);
        return -1;
    }
    CUDA_CHECK(cudaMemset(d_value, 0, n * sizeof(int)));
    int first = 0;
    CUDA_CHECK(cudaMemcpy(&first, d_value, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_value));
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
