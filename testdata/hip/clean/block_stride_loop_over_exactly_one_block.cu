// Clean: every launch gives blocks of exactly `num_heads * feat_dim` threads and passes both
// factors, so `for (tx = threadIdx.x; tx < feat_dim * num_heads; tx += blockDim.x)` runs once
// in every thread: its test holds in the whole warp, and the shuffles inside run in whole warps.
#include <hip/hip_runtime.h>
#include "hip_check.h"

template <typename Idx, typename DType>
__global__ void attention_grad(const Idx* ranges, const Idx* eids, DType* grad_a,
                               const DType* grad_t, const DType* message, const DType* sigmas,
                               Idx num_nodes, Idx num_heads, Idx feat_dim) {
  const int lane = threadIdx.x % 32;
  if (blockIdx.x < num_nodes) {
    Idx beg = ranges[blockIdx.x];
    const Idx end = ranges[blockIdx.x + 1];
    for (Idx tx = threadIdx.x; tx < feat_dim * num_heads; tx += blockDim.x) {
      const Idx head = tx / feat_dim;
      const DType g = grad_t[blockIdx.x * num_heads * feat_dim + tx];
      for (; beg < end; beg++) {
        const Idx eid = eids[beg];
        const DType sigma = sigmas[eid * num_heads + head];
        DType inner = sigma * (1 - sigma) * message[eid * num_heads * feat_dim + tx] * g;
        for (int i = 16; i > 0; i /= 2) inner += __shfl_down_sync(0xffffffff, inner, i);
        if (lane == 0) atomicAdd(grad_a + eid * num_heads + head, inner);
      }
    }
  }
}

void attention_grad_launch(const int* ranges, const int* eids, float* grad_a, const float* grad_t,
                           const float* message, const float* sigmas, int num_nodes,
                           int num_heads, int feat_dim, hipStream_t stream) {
  const int blocks = num_nodes;
  const int threads = num_heads * feat_dim;
  attention_grad<int, float><<<blocks, threads, 0, stream>>>(ranges, eids, grad_a, grad_t, message,
                                                             sigmas, num_nodes, num_heads, feat_dim);
  HIP_CHECK(hipGetLastError());
}
