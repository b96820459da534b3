// Each warp walks its own run of KV blocks: the counter starts at a value the warp's lanes share
// (`warp_id * blocks_per_warp` past the chunk's first block) and steps by one, so every test on
// it, and the `continue` it guards, is taken by whole warps; the full-mask reduction after it is
// reached by all 32 lanes.
#include "hip_check.h"

constexpr int WARP_SIZE = 32;

__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void decode_scores(const float *k_cache, const float *q, float *scores, int t_start,
                              int t_end, int block_size, int active_warps) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp_id = threadIdx.x / WARP_SIZE;
  if (warp_id >= active_warps) return;
  const int first_block = t_start / block_size;
  const int last_block = (t_end + block_size - 1) / block_size;
  const int blocks_per_warp = (last_block - first_block + active_warps - 1) / active_warps;
  const int warp_first = first_block + warp_id * blocks_per_warp;
  int warp_last = warp_first + blocks_per_warp;
  if (warp_last > last_block) warp_last = last_block;
  for (int block = warp_first; block < warp_last; block++) {
    int token_begin = block * block_size;
    int token_end = token_begin + block_size;
    if (token_begin < t_start) token_begin = t_start;
    if (token_end > t_end) token_end = t_end;
    if (token_begin >= token_end) continue;
    for (int t = token_begin; t < token_end; ++t) {
      float dot = q[lane] * k_cache[(size_t)t * WARP_SIZE + lane];
      dot = warp_reduce_sum(dot);
      if (lane == 0) scores[t] = dot;
    }
  }
}

void decode(const float *k_cache, const float *q, float *scores, int t_start, int t_end,
            int block_size, hipStream_t stream) {
  decode_scores<<<1, 8 * WARP_SIZE, 0, stream>>>(k_cache, q, scores, t_start, t_end, block_size, 8);
  HIP_CHECK(hipGetLastError());
}
