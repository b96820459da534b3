// A constant of an included header is a constant here too: the grid is rounded up over a count
// of thousands, which POINTS_PER_BLOCK divides, so no thread returns before the barrier. The
// second launch covers any count, and its tail threads do return.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "sizes.h"

__global__ void smooth(const float* in, float* out, int count) {
    __shared__ float tile[POINTS_PER_BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    tile[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = threadIdx.x > 0 ? 0.5f * (tile[threadIdx.x] + tile[threadIdx.x - 1]) : tile[0];
}

__global__ void smoothAny(const float* in, float* out, int count) {
    __shared__ float tile[POINTS_PER_BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    tile[threadIdx.x] = in[i];
    __syncthreads(); // expect: divergent-barrier
    out[i] = threadIdx.x > 0 ? 0.5f * (tile[threadIdx.x] + tile[threadIdx.x - 1]) : tile[0];
}

int smoothAll(const float* in, float* out, int thousands, int any) {
    const int count = thousands * 1024;
    smooth<<<(count + POINTS_PER_BLOCK - 1) / POINTS_PER_BLOCK, POINTS_PER_BLOCK>>>(in, out, count);
    if (cudaGetLastError() != cudaSuccess) return 1;
    smoothAny<<<(any + POINTS_PER_BLOCK - 1) / POINTS_PER_BLOCK, POINTS_PER_BLOCK>>>(in, out, any);
    if (cudaGetLastError() != cudaSuccess) return 1;
    return 0;
}
