// Bad: a device reset releases only what is allocated when it runs on every path. A buffer
// allocated after the reset, one that a `return` before the reset takes away, and one that only
// an error branch resets are still leaked.
#include <cstdio>
#include <cstdlib>
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

__global__ void fill(float* p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

void after_reset(int n)
{
    float* first;
    CUDA_CHECK(cudaMalloc(&first, n * sizeof(float)));
    fill<<<(n + 255) / 256, 256>>>(first, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceReset());
    float* second;
    CUDA_CHECK(cudaMalloc(&second, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(second, n);
    CUDA_CHECK(cudaGetLastError());
}

void early_return(int n)
{
    float* buffer;
    CUDA_CHECK(cudaMalloc(&buffer, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(buffer, n);
    if (cudaGetLastError() != cudaSuccess) return;
    CUDA_CHECK(cudaDeviceReset());
}

void reset_on_error(int n)
{
    float* buffer;
    CUDA_CHECK(cudaMalloc(&buffer, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(buffer, n);
    if (cudaGetLastError() != cudaSuccess) {
        fprintf(stderr, "launch failed\n");
        CUDA_CHECK(cudaDeviceReset());
    }
}
