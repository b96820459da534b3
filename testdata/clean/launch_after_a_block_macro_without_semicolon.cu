// Clean: an error-check macro that expands to a block is written without `;` before and after a
// launch, as the compiler allows. The launch gives exactly `rows` blocks of 64 threads for 64
// values a row, so the kernel needs no guard.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK_KERNEL                                                   \
    {                                                                  \
        cudaError_t error = cudaGetLastError();                        \
        if (error != cudaSuccess) printf("%s\n", cudaGetErrorString(error)); \
    }

__global__ void fill_rows(float* x)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 2.0f;
}

void fill(float* x, int rows)
{
    CHECK_KERNEL
    fill_rows<<<rows, 64>>>(x);
    CHECK_KERNEL
}
