// Clean (project): the HIP port of ../cuda/scale.cu. Its configuration header is in the CUDA
// program's folder, found through the -I of this folder's Makefile: SCALE_BLOCK is 256 there,
// the count is a multiple of it, and the barrier after the early return is reached by every thread.
#include <hip/hip_runtime.h>
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
    return hipGetLastError() != hipSuccess;
}
