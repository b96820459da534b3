// Clean: threads split at compile-time constants. A namespace's `inline constexpr` group of 64
// threads leaves in whole warps; a warp-specialised kernel splits producer and consumer at the
// size of its tiled MMA (`constexpr`, a whole number of warpgroups, not computable here).
#include "cuda_check.h"
#include <cstdint>

namespace ops {
inline constexpr std::int32_t kGroup = 64;
inline constexpr std::int32_t kGroupsPerBlock = 4;

__global__ void gather_groups(const int* ids, float* out, std::int32_t d) {
    const std::int32_t kg = d / kGroup;
    const std::int32_t slot = threadIdx.x / kGroup;
    const std::int32_t lane = threadIdx.x - slot * kGroup;
    const std::int32_t g = blockIdx.x * kGroupsPerBlock + slot;
    if (g >= kg) {
        return;
    }
    int bits = 0;
    if ((lane & 31) == 0) {
        bits = ids[g];
    }
    bits = __shfl_sync(0xffffffffu, bits, 0);
    out[g * kGroup + lane] = bits;
}
}  // namespace ops

template <typename TiledMma>
__global__ void __launch_bounds__(256) specialised(const float* in, float* out) {
    constexpr int kMathThreads = size(TiledMma{});
    int idx = threadIdx.x;
    if (idx >= kMathThreads) {
        idx -= kMathThreads;
        int warp = __shfl_sync(0xffffffff, idx / 32, 0);
        if (warp == 0 && (idx & 31) == 0) {
            out[blockIdx.x] = in[blockIdx.x];
        }
    }
}

void gather(const int* ids, float* out, int d, int tokens) {
    int groups = d / ops::kGroup;
    ops::gather_groups<<<tokens * ((groups + 3) / 4), 256>>>(ids, out, d);
    CUDA_CHECK(cudaGetLastError());
}
