// Bad: the cleanup lambda forgets the second buffer, which every call leaks.
#include <cuda_runtime.h>

__global__ void fill(float* p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

int run(int n)
{
    float* d_a = nullptr;
    float* d_b = nullptr;
    auto cleanup = [&]() {
        if (d_a) cudaFree(d_a);
    };
    if (cudaMalloc(&d_a, n * sizeof(float)) != cudaSuccess) { cleanup(); return 1; }
    if (cudaMalloc(&d_b, n * sizeof(float)) != cudaSuccess) { cleanup(); return 1; } // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(d_a, n);
    fill<<<(n + 255) / 256, 256>>>(d_b, n);
    cleanup();
    return cudaGetLastError() != cudaSuccess;
}
