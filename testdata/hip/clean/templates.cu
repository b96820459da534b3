// Clean: templated kernels and launch helpers; error checking macro comes from a header.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>
#include "hip_check.h"

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
    HIP_CHECK(hipMalloc(&d_a, count * sizeof(T)));
    HIP_CHECK(hipMalloc(&d_b, count * sizeof(T)));
    HIP_CHECK(hipMalloc(&d_dot, sizeof(T)));
    HIP_CHECK(hipMemset(d_dot, 0, sizeof(T)));

    const unsigned int threads = 128;
    const unsigned int blocks = static_cast<unsigned int>((count + threads - 1) / threads);
    fillSequence<T><<<blocks, threads>>>(d_a, T(1), T(0.5), count);
    HIP_CHECK(hipGetLastError());
    fillSequence<T><<<blocks, threads>>>(d_b, T(2), T(0.25), count);
    HIP_CHECK(hipGetLastError());

    const unsigned int blocks4 = static_cast<unsigned int>((count + threads * 4 - 1) / (threads * 4));
    scaleItems<T, 4><<<blocks4, threads>>>(d_a, T(3), count);
    HIP_CHECK(hipGetLastError());

    dot<T><<<64, threads>>>(d_a, d_b, d_dot, static_cast<int>(count));
    HIP_CHECK(hipGetLastError());

    T h_dot = T(0);
    HIP_CHECK(hipMemcpy(&h_dot, d_dot, sizeof(T), hipMemcpyDeviceToHost));
    printf("dot = %f\n", static_cast<double>(h_dot));

    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    HIP_CHECK(hipFree(d_dot));
}

int main() {
    runPipeline<float>(10000);
    runPipeline<double>(12345);
    return 0;
}
