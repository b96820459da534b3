// Bad: the same benchmark over a size that is not a multiple of the block. `dimGrid.x` is
// rounded up, so the last block's threads past N read and write past both buffers, whatever the
// loop does to `dimGrid.y`.
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define THREADS_PER_BLOCK 256

__global__ void power_kernel(const float *A, float *C, int N)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float v = A[i]; // expect: unguarded-thread-index
    for (int k = 0; k < 100; k++)
        v = __sinf(v);
    C[i] = v;
}

int run(int N)
{
    size_t size = N * sizeof(float);
    float *d_A, *d_C;
    HIP_CHECK(hipMalloc((void **)&d_A, size));
    HIP_CHECK(hipMalloc((void **)&d_C, size));
    HIP_CHECK(hipMemset(d_A, 0, size));
    dim3 dimGrid((N + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, 1);
    dim3 dimBlock(THREADS_PER_BLOCK, 1);
    dimGrid.y = 240;
    for (int round = 0; round < 3; round++) {
        dimGrid.y /= 3;
        power_kernel<<<dimGrid, dimBlock>>>(d_A, d_C, N);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
    }
    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_C));
    return 0;
}
