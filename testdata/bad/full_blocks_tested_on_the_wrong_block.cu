// Bad: the prescan sets the first block apart instead of the last, so the unguarded branch runs
// in the last block too, whose tile passes `n` when `n` is not a multiple of 4 * 256. The
// scaling kernel tests the last block on `y` while its index runs along `x`.
#include <cstdint>
#include <cuda_runtime.h>
#include "cuda_check.h"
#define NUM_ROLLS 4

__global__ void prescan(const uint32_t *keys, uint32_t n, uint32_t *block_sums)
{
    uint32_t lane = threadIdx.x & 31;
    uint32_t warp = threadIdx.x >> 5;
    uint32_t base = blockIdx.x * blockDim.x * NUM_ROLLS + ((warp * NUM_ROLLS) << 5) + lane;
    uint32_t sum = 0;
    if (blockIdx.x == 0) {
        for (int r = 0; r < NUM_ROLLS; r++) {
            uint32_t a = base + (r << 5);
            sum += a < n ? keys[a] : 0;
        }
    } else {
        for (int r = 0; r < NUM_ROLLS; r++) sum += keys[base + (r << 5)]; // expect: unguarded-thread-index
    }
    atomicAdd(&block_sums[blockIdx.x], sum);
}

__global__ void scale_tiles(float *data, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.y + 1 < gridDim.y) {
        data[i] *= alpha; // expect: unguarded-thread-index
        return;
    }
    if (i < n) data[i] *= alpha;
}

void run(const uint32_t *keys, uint32_t n, uint32_t *block_sums, float *data, cudaStream_t stream)
{
    const uint32_t threads = 256, tile = threads * NUM_ROLLS;
    const uint32_t blocks = (n + tile - 1) / tile;
    prescan<<<blocks, threads, 0, stream>>>(keys, n, block_sums);
    CUDA_CHECK(cudaGetLastError());
    scale_tiles<<<(n + 255) / 256, 256, 0, stream>>>(data, 2.0f, (int)n);
    CUDA_CHECK(cudaGetLastError());
}
