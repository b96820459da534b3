// Bad: the same sampler with the transit index divided by `SubWarpLevel` (8): four transits per
// warp, so the lanes of one warp disagree on the test before the shuffle and the lanes whose
// transit is past the end skip the full-mask shuffle that names them (a hang or wrong values).
#include <hip/hip_runtime.h>
#include "hip_check.h"
#define FULL_WARP_MASK 0xffffffff
#define TRANSITS_PER_THREAD 4

namespace LoadBalancing {
enum LoadBalancingThreshold { GridLevel = 256, BlockLevel = 32, SubWarpLevel = 8 };
}

__global__ void thread_block_kernel(const int *positions, int positions_num, int total_blocks, int *out)
{
    int acc = 0;
    for (int full_block = blockIdx.x; full_block < total_blocks; full_block += gridDim.x) {
        int full_warp = (threadIdx.x + full_block * blockDim.x) / LoadBalancing::LoadBalancingThreshold::SubWarpLevel;
        for (int transit = 0; transit < TRANSITS_PER_THREAD; transit++) {
            if (TRANSITS_PER_THREAD * full_warp + transit >= positions_num) continue;
            int cached = 0;
            if (threadIdx.x % 32 == 0) cached = positions[TRANSITS_PER_THREAD * full_warp + transit];
            acc += __shfl_sync(FULL_WARP_MASK, cached, 0); // expect: partial-warp-shuffle
        }
    }
    atomicAdd(out, acc);
}

void sample(const int *positions, int n, int *out)
{
    const int threads = 256, blocks = (n * 32 / TRANSITS_PER_THREAD + threads - 1) / threads;
    hipLaunchKernelGGL(thread_block_kernel, blocks, threads, 0, 0, positions, n, blocks, out);
    HIP_CHECK(hipGetLastError());
}
