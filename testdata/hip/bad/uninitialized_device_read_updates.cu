// Bad: kernels that update device memory in place (`+=`, atomics, a field of an element) or read it
// through a launcher, when nothing cleared or filled that memory first, or only part of it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define NUM_BINS 256

struct Accum {
    float sum;
    int count;
};

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

__global__ void accumulate(const float* in, const int* key, Accum* acc, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        acc[key[i]].sum += in[i];
    }
}

__global__ void dot(const float* a, const float* b, float* result, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(result, a[i] * b[i]);
    }
}

__global__ void sumPartials(const float* partial, float* out, int count) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (int k = 0; k < count; ++k) {
            *out += partial[k];
        }
    }
}

// the address written as the buffer plus an offset
__global__ void countPerGroup(const int* key, int* counts, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(counts + key[i], 1);
    }
}

__global__ void addRows(const float* in, float* rowSums, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        for (int c = 0; c < cols; ++c) {
            *(rowSums + r) += in[r * cols + c];
        }
    }
}

static void launchDot(const float* d_a, const float* d_b, float* d_result, int n) {
    hipLaunchKernelGGL(dot, (n + 255) / 256, 256, 0, 0, d_a, d_b, d_result, n);
    HIP_CHECK(hipGetLastError());
}

int main() {
    const int n = 1 << 20;
    const int groups = 64;
    std::vector<float> h_in(n, 1.0f);
    std::vector<int> h_key(n);
    std::vector<unsigned char> h_pixels(n);
    for (int i = 0; i < n; ++i) {
        h_key[i] = i % groups;
        h_pixels[i] = static_cast<unsigned char>(i % NUM_BINS);
    }

    float *d_in = nullptr, *d_total = nullptr, *d_dot = nullptr, *d_sum = nullptr;
    int* d_key = nullptr;
    unsigned char* d_pixels = nullptr;
    unsigned int* d_bins = nullptr;
    Accum* d_acc = nullptr;
    int* d_counts = nullptr;
    float* d_rowSums = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_total, sizeof(float)));
    HIP_CHECK(hipMalloc(&d_dot, sizeof(float)));
    HIP_CHECK(hipMalloc(&d_sum, sizeof(float)));
    HIP_CHECK(hipMalloc(&d_key, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_pixels, n * sizeof(unsigned char)));
    HIP_CHECK(hipMalloc(&d_bins, NUM_BINS * sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&d_acc, groups * sizeof(Accum)));
    HIP_CHECK(hipMalloc(&d_counts, groups * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_rowSums, groups * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_key, h_key.data(), n * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_pixels, h_pixels.data(), n * sizeof(unsigned char), hipMemcpyHostToDevice));
    // the count of bins, not of bytes: a quarter of the histogram is cleared
    HIP_CHECK(hipMemset(d_bins, 0, NUM_BINS));

    hipLaunchKernelGGL(blockSums, (n + 255) / 256, 256, 0, 0, d_in, d_total, n); // expect: uninitialized-device-read
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(histogram, (n + 255) / 256, 256, 0, 0, d_pixels, d_bins, n); // expect: uninitialized-device-read
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(accumulate, (n + 255) / 256, 256, 0, 0, d_in, d_key, d_acc, n); // expect: uninitialized-device-read
    HIP_CHECK(hipGetLastError());
    launchDot(d_in, d_in, d_dot, n); // expect: uninitialized-device-read
    hipLaunchKernelGGL(sumPartials, 1, 1, 0, 0, d_in, d_sum, groups); // expect: uninitialized-device-read
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(countPerGroup, (n + 255) / 256, 256, 0, 0, d_key, d_counts, n); // expect: uninitialized-device-read
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(addRows, 1, groups, 0, 0, d_in, d_rowSums, groups, n / groups); // expect: uninitialized-device-read
    HIP_CHECK(hipGetLastError());

    float total = 0.0f, product = 0.0f;
    HIP_CHECK(hipMemcpy(&total, d_total, sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(&product, d_dot, sizeof(float), hipMemcpyDeviceToHost));
    printf("total = %f, dot = %f\n", total, product);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_total));
    HIP_CHECK(hipFree(d_dot));
    HIP_CHECK(hipFree(d_sum));
    HIP_CHECK(hipFree(d_key));
    HIP_CHECK(hipFree(d_pixels));
    HIP_CHECK(hipFree(d_bins));
    HIP_CHECK(hipFree(d_acc));
    HIP_CHECK(hipFree(d_counts));
    HIP_CHECK(hipFree(d_rowSums));
    return 0;
}
