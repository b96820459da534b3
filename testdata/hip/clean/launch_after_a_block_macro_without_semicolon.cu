// Clean: an error-check macro that expands to a block is written without `;` before and after a
// launch, as the compiler allows. The launch gives exactly `rows` blocks of 64 threads for 64
// values a row, so the kernel needs no guard.
#include <cstdio>
#include <hip/hip_runtime.h>

#define CHECK_KERNEL                                                   \
    {                                                                  \
        hipError_t error = hipGetLastError();                        \
        if (error != hipSuccess) printf("%s\n", hipGetErrorString(error)); \
    }

__global__ void fill_rows(float* x)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 2.0f;
}

void fill(float* x, int rows)
{
    CHECK_KERNEL
    hipLaunchKernelGGL(fill_rows, rows, 64, 0, 0, x);
    CHECK_KERNEL
}
