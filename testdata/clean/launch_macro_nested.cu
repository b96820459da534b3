// Launches one macro deep: the dispatch macro the launcher uses expands to an inner macro that
// holds the `<<<`, and a launcher that defines its own launch macro in its body. Every block
// holds exactly one sequence of `seqlen` threads, so `seq + threadIdx.x` stays inside it, and
// the warp count per block is whole warps of 32 lanes.
#include "cuda_check.h"

template <int kThreadsPerWarp, int kWarpsPerBlock>
__global__ void warp_scan(const float *gates, float *result, int seq_stride) {
  __shared__ float warp_last[kWarpsPerBlock];
  const int seq = blockIdx.x * seq_stride;
  const int warp = threadIdx.x / kThreadsPerWarp;
  const int lane = threadIdx.x % kThreadsPerWarp;
  float acc = gates[seq + threadIdx.x];
  if (lane == kThreadsPerWarp - 1) warp_last[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    float w = (lane < kWarpsPerBlock) ? warp_last[lane] : 0.f;
    for (int delta = 1; delta < 32; delta *= 2) {
      float prev = __shfl_up_sync(0xffffffff, w, delta);
      if (lane >= delta) w += prev;
    }
    if (lane < kWarpsPerBlock) warp_last[lane] = w;
  }
  __syncthreads();
  result[seq + threadIdx.x] = acc + (warp > 0 ? warp_last[warp - 1] : 0.f);
}

#define DISPATCH_SCAN_INNER(kWarp, kWarps, grid, threads, stream, g, o, stride) \
  warp_scan<kWarp, kWarps><<<grid, threads, 0, stream>>>(g, o, stride);

#define DISPATCH_SCAN(kWarp, kWarps, grid, threads, stream, g, o, stride) \
  DISPATCH_SCAN_INNER(kWarp, kWarps, grid, threads, stream, g, o, stride)

void scan_sequences(const float *gates, float *out, int sequences, int seqlen,
                    cudaStream_t stream) {
  constexpr int kThreadsPerWarp = 32;
  if (seqlen == 128) {
    constexpr int kWarpsPerBlock = 4;
    DISPATCH_SCAN(kThreadsPerWarp, kWarpsPerBlock, sequences, seqlen, stream, gates, out, seqlen);
  } else if (seqlen == 256) {
    constexpr int kWarpsPerBlock = 8;
    DISPATCH_SCAN(kThreadsPerWarp, kWarpsPerBlock, sequences, seqlen, stream, gates, out, seqlen);
  }
  CUDA_CHECK(cudaGetLastError());
}

void scan_short(const float *gates, float *out, int sequences, int seqlen, cudaStream_t stream) {
#define LAUNCH_SCAN(kWarps) \
  warp_scan<32, kWarps><<<sequences, seqlen, 0, stream>>>(gates, out, seqlen)
  if (seqlen == 64) {
    LAUNCH_SCAN(2);
  } else if (seqlen == 32) {
    LAUNCH_SCAN(1);
  }
#undef LAUNCH_SCAN
  CUDA_CHECK(cudaGetLastError());
}
