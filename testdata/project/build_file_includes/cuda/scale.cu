// Clean (project): the count is a multiple of 1024, and so of SCALE_BLOCK (scale_config.h,
// beside this file); the grid covers exactly the count, and the barrier after the early return
// is reached by every thread of every block.
#include <cuda_runtime.h>
#include "scale_config.h"

__global__ void scale_tiles(float* values, int padded) {
    __shared__ float tile[SCALE_BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= padded) return;
    tile[threadIdx.x] = values[i];
    __syncthreads();
    values[i] = tile[(threadIdx.x + 1) % SCALE_BLOCK] * 0.5f;
}

int scale(float* values, int groups) {
    int padded = groups * 1024;
    scale_tiles<<<(padded + SCALE_BLOCK - 1) / SCALE_BLOCK, SCALE_BLOCK>>>(values, padded);
    return cudaGetLastError() != cudaSuccess;
}
