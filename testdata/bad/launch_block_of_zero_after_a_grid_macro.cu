// Bad: the grid macro writes only the grid, so the `0` after it is the block: a launch of zero
// threads per block fails and the kernel never runs (the shared bytes were meant to be zero).
#include "cuda_check.h"

#define GET_BLOCKS(n) (((n) + 255) / 256)

__global__ void scale(float* p, int n, float alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] *= alpha;
}

void run(float* p, int n, cudaStream_t stream)
{
    scale<<<GET_BLOCKS(n), 0, 0, stream>>>(p, n, 2.0f); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());
}
