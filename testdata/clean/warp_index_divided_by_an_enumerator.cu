// Clean: a graph sampler in the style of load-balanced random walks. Each warp takes one
// transit; its index is the thread index divided by the enumerator `BlockLevel` (32) of the
// load-balancing thresholds, so all 32 lanes of a warp test the same transit and skip the
// full-mask shuffle together.
#include <cuda_runtime.h>
#define FULL_WARP_MASK 0xffffffff
#define TRANSITS_PER_THREAD 4

namespace LoadBalancing {
enum LoadBalancingThreshold { GridLevel = 256, BlockLevel = 32, SubWarpLevel = 8 };
}

__global__ void thread_block_kernel(const int *positions, int positions_num, int total_blocks, int *out)
{
    int acc = 0;
    for (int full_block = blockIdx.x; full_block < total_blocks; full_block += gridDim.x) {
        int full_warp = (threadIdx.x + full_block * blockDim.x) / LoadBalancing::LoadBalancingThreshold::BlockLevel;
        for (int transit = 0; transit < TRANSITS_PER_THREAD; transit++) {
            if (TRANSITS_PER_THREAD * full_warp + transit >= positions_num) continue;
            int cached = 0;
            if (threadIdx.x % 32 == 0) cached = positions[TRANSITS_PER_THREAD * full_warp + transit];
            acc += __shfl_sync(FULL_WARP_MASK, cached, 0);
        }
    }
    atomicAdd(out, acc);
}

void sample(const int *positions, int n, int *out)
{
    const int threads = 256, blocks = (n * 32 / TRANSITS_PER_THREAD + threads - 1) / threads;
    thread_block_kernel<<<blocks, threads>>>(positions, n, blocks, out);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return;
}
