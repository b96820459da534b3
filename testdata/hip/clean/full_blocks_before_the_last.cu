// Clean: a multisplit prescan in the style of tile-based sorting code. The grid is rounded up
// to whole tiles of 4 * 256 keys; the last block tests each key against `n`, and every other
// block, being full, reads its whole tile unguarded. A block before the last never passes `n`.
#include <cstdint>
#include <hip/hip_runtime.h>
#define NUM_ROLLS 4

__global__ void prescan(const uint32_t *keys, uint32_t n, uint32_t *block_sums)
{
    uint32_t lane = threadIdx.x & 31;
    uint32_t warp = threadIdx.x >> 5;
    uint32_t base = blockIdx.x * blockDim.x * NUM_ROLLS + ((warp * NUM_ROLLS) << 5) + lane;
    uint32_t sum = 0;
    if (blockIdx.x == gridDim.x - 1) {
        for (int r = 0; r < NUM_ROLLS; r++) {
            uint32_t a = base + (r << 5);
            sum += a < n ? keys[a] : 0;
        }
    } else {
        for (int r = 0; r < NUM_ROLLS; r++) sum += keys[base + (r << 5)];
    }
    atomicAdd(&block_sums[blockIdx.x], sum);
}

__global__ void scale_tiles(float *data, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x + 1 < gridDim.x) {
        data[i] *= alpha; // a block before the last is full
        return;
    }
    if (i < n) data[i] *= alpha;
}

void run(const uint32_t *keys, uint32_t n, uint32_t *block_sums, float *data, hipStream_t stream)
{
    const uint32_t threads = 256, tile = threads * NUM_ROLLS;
    const uint32_t blocks = (n + tile - 1) / tile;
    prescan<<<blocks, threads, 0, stream>>>(keys, n, block_sums);
    scale_tiles<<<(n + 255) / 256, 256, 0, stream>>>(data, 2.0f, (int)n);
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) return;
}
