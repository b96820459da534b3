// Clean: a power micro-benchmark that shrinks the grid's second axis on each round. Only
// `dimGrid.y` changes; `dimGrid.x` stays NUM_OF_BLOCKS blocks of THREADS_PER_BLOCK threads, which
// is exactly the N elements allocated, so the kernel needs no guard on `i`.
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define THREADS_PER_BLOCK 256
#define NUM_OF_BLOCKS 240

__global__ void power_kernel(const float *A, float *C, int N)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float v = A[i];
    for (int k = 0; k < 100; k++)
        v = __sinf(v);
    C[i] = v;
}

int main()
{
    int N = THREADS_PER_BLOCK * NUM_OF_BLOCKS;
    size_t size = N * sizeof(float);
    float *d_A, *d_C;
    HIP_CHECK(hipMalloc((void **)&d_A, size));
    HIP_CHECK(hipMalloc((void **)&d_C, size));
    HIP_CHECK(hipMemset(d_A, 0, size));
    dim3 dimGrid(NUM_OF_BLOCKS, 1);
    dim3 dimBlock(THREADS_PER_BLOCK, 1);
    dimGrid.y = NUM_OF_BLOCKS;
    for (int round = 0; round < 3; round++) {
        dimGrid.y /= 3;
        hipLaunchKernelGGL(power_kernel, dimGrid, dimBlock, 0, 0, d_A, d_C, N);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
    }
    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_C));
    return 0;
}
