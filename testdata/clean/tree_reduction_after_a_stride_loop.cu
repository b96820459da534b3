// A block-strided dot product, then a tree reduction that reuses the loop's counter: after
// `i = BLOCK / 2` every thread holds the same `i`, so the reduction's barrier is the block's.
#include "cuda_check.h"

#define BLOCK 256

__global__ void batched_dot(int n, const float* x, const float* y, float* out)
{
    __shared__ float partial[BLOCK];
    int i = threadIdx.x;
    partial[threadIdx.x] = 0.f;
    while (i < n) {
        partial[threadIdx.x] += x[blockIdx.x * n + i] * y[blockIdx.x * n + i];
        i += blockDim.x;
    }
    __syncthreads();
    i = BLOCK / 2;
    while (i > 0) {
        if (threadIdx.x < i) partial[threadIdx.x] += partial[threadIdx.x + i];
        __syncthreads();
        i /= 2;
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

cudaError_t dot_rows(int rows, int n, const float* x, const float* y, float* out)
{
    batched_dot<<<rows, BLOCK>>>(n, x, y, out);
    return cudaGetLastError();
}
