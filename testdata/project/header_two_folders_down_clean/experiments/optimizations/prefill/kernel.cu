// `config.cuh` is csrc/megakernel/config.cuh, found through the include path a build script
// gives: WARP_SIZE is 32 there, so `warp_id == 0` is a whole warp.
#include "config.cuh"

__device__ __forceinline__ float prefill_warp_sum(float val) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__global__ void prefill_rmsnorm(const float *x, float *y, int hidden) {
  __shared__ float partial[NUM_WARPS];
  const float *row = x + (size_t)blockIdx.x * hidden;
  float sum_sq = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) sum_sq += row[i] * row[i];
  const int warp_id = threadIdx.x / WARP_SIZE;
  const int lane_id = threadIdx.x % WARP_SIZE;
  sum_sq = prefill_warp_sum(sum_sq);
  if (lane_id == 0) partial[warp_id] = sum_sq;
  __syncthreads();
  if (warp_id == 0) {
    float total = lane_id < NUM_WARPS ? partial[lane_id] : 0.f;
    total = prefill_warp_sum(total);
    if (lane_id == 0) partial[0] = rsqrtf(total / float(hidden) + 1e-6f);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) y[(size_t)blockIdx.x * hidden + i] = row[i] * partial[0];
}

void prefill_norm(const float *x, float *y, int rows, int hidden, cudaStream_t stream) {
  prefill_rmsnorm<<<rows, BLOCK_SIZE, 0, stream>>>(x, y, hidden);
  CUDA_CHECK(cudaGetLastError());
}
