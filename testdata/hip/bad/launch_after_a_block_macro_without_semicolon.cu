// Bad: an error-check macro that expands to a block is written without `;` before a launch of
// 2048 threads per block: past the 1024 limit, the launch fails and the rows are never filled.
#include <cstdio>
#include <hip/hip_runtime.h>

#define CHECK_KERNEL                                                   \
    {                                                                  \
        hipError_t error = hipGetLastError();                        \
        if (error != hipSuccess) printf("%s\n", hipGetErrorString(error)); \
    }

__global__ void fill_rows(float* x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f;
}

void fill(float* x, int n)
{
    CHECK_KERNEL
    fill_rows<<<(n + 2047) / 2048, 2048>>>(x, n); // expect: invalid-launch-config
    CHECK_KERNEL
}
