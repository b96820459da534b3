// Bad: the cleanup lambda forgets the second buffer, which every call leaks.
#include <hip/hip_runtime.h>

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
        if (d_a) hipFree(d_a);
    };
    if (hipMalloc(&d_a, n * sizeof(float)) != hipSuccess) { cleanup(); return 1; }
    if (hipMalloc(&d_b, n * sizeof(float)) != hipSuccess) { cleanup(); return 1; } // expect: device-memory-leak
    hipLaunchKernelGGL(fill, (n + 255) / 256, 256, 0, 0, d_a, n);
    hipLaunchKernelGGL(fill, (n + 255) / 256, 256, 0, 0, d_b, n);
    cleanup();
    return hipGetLastError() != hipSuccess;
}
