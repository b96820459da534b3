// Bad: kernels that update device memory in place (`+=`, atomics, a field of an element) or read it
// through a launcher, when nothing cleared or filled that memory first, or only part of it.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
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
    dot<<<(n + 255) / 256, 256>>>(d_a, d_b, d_result, n);
    CUDA_CHECK(cudaGetLastError());
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
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_dot, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_key, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_pixels, n * sizeof(unsigned char)));
    CUDA_CHECK(cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_acc, groups * sizeof(Accum)));
    CUDA_CHECK(cudaMalloc(&d_counts, groups * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_rowSums, groups * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_key, h_key.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_pixels, h_pixels.data(), n * sizeof(unsigned char), cudaMemcpyHostToDevice));
    // the count of bins, not of bytes: a quarter of the histogram is cleared
    CUDA_CHECK(cudaMemset(d_bins, 0, NUM_BINS));

    blockSums<<<(n + 255) / 256, 256>>>(d_in, d_total, n); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    histogram<<<(n + 255) / 256, 256>>>(d_pixels, d_bins, n); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    accumulate<<<(n + 255) / 256, 256>>>(d_in, d_key, d_acc, n); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    launchDot(d_in, d_in, d_dot, n); // expect: uninitialized-device-read
    sumPartials<<<1, 1>>>(d_in, d_sum, groups); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    countPerGroup<<<(n + 255) / 256, 256>>>(d_key, d_counts, n); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    addRows<<<1, groups>>>(d_in, d_rowSums, groups, n / groups); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());

    float total = 0.0f, product = 0.0f;
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&product, d_dot, sizeof(float), cudaMemcpyDeviceToHost));
    printf("total = %f, dot = %f\n", total, product);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_total));
    CUDA_CHECK(cudaFree(d_dot));
    CUDA_CHECK(cudaFree(d_sum));
    CUDA_CHECK(cudaFree(d_key));
    CUDA_CHECK(cudaFree(d_pixels));
    CUDA_CHECK(cudaFree(d_bins));
    CUDA_CHECK(cudaFree(d_acc));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaFree(d_rowSums));
    return 0;
}
