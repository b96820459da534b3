// Clean: templated kernels and launch helpers; error checking macro comes from a header.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"

template <typename T>
__global__ void fillSequence(T* out, T start, T step, size_t count) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < count) {
        out[i] = start + static_cast<T>(i) * step;
    }
}

template <typename T, int ITEMS>
__global__ void scaleItems(T* data, T factor, size_t count) {
    size_t base = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * ITEMS;
    #pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        if (base + k < count) {
            data[base + k] *= factor;
        }
    }
}

template <typename T>
__global__ void dot(const T* a, const T* b, T* result, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicAdd(result, a[i] * b[i]);
    }
}

template <typename T>
static void runPipeline(size_t count) {
    T* d_a = nullptr;
    T* d_b = nullptr;
    T* d_dot = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, count * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_b, count * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_dot, sizeof(T)));
    CUDA_CHECK(cudaMemset(d_dot, 0, sizeof(T)));

    const unsigned int threads = 128;
    const unsigned int blocks = static_cast<unsigned int>((count + threads - 1) / threads);
    fillSequence<T><<<blocks, threads>>>(d_a, T(1), T(0.5), count);
    CUDA_CHECK(cudaGetLastError());
    fillSequence<T><<<blocks, threads>>>(d_b, T(2), T(0.25), count);
    CUDA_CHECK(cudaGetLastError());

    const unsigned int blocks4 = static_cast<unsigned int>((count + threads * 4 - 1) / (threads * 4));
    scaleItems<T, 4><<<blocks4, threads>>>(d_a, T(3), count);
    CUDA_CHECK(cudaGetLastError());

    dot<T><<<64, threads>>>(d_a, d_b, d_dot, static_cast<int>(count));
    CUDA_CHECK(cudaGetLastError());

    T h_dot = T(0);
    CUDA_CHECK(cudaMemcpy(&h_dot, d_dot, sizeof(T), cudaMemcpyDeviceToHost));
    printf("dot = %f\n", static_cast<double>(h_dot));

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_dot));
}

int main() {
    runPipeline<float>(10000);
    runPipeline<double>(12345);
    return 0;
}
