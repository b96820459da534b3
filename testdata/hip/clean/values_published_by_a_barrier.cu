// Clean: values a barrier publishes. After `__syncthreads()` every thread of the block reads the
// same value from a shared location, whichever threads stored it and however they derived it,
// as long as nothing stores to it again before the read. Tests of such values, and of locals
// whose last value is one, do not split the block.
#include <hip/hip_runtime.h>
#include "hip_check.h"

// Ordered compaction in two passes: the last lane of the first warp stores the tile's total,
// every thread adds it to a running base that bounds the loop, and the second pass clamps it.
__global__ void compact(const int* __restrict__ in, int* __restrict__ out, int n, int cap) {
  __shared__ int tile_total;
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int n_tiles = (n + 255) / 256;
  int base = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const int pass_cap = pass == 0 ? cap / 2 : cap;
    for (int t0 = 0; t0 < n_tiles && base < pass_cap; ++t0) {
      const int i = t0 * 256 + t;
      const int keep = (i < n && in[i] > pass) ? 1 : 0;
      int inclusive = keep;
      for (int o = 1; o < 32; o <<= 1) {
        const int v = __shfl_up_sync(0xffffffffu, inclusive, o);
        if (lane >= o) inclusive += v;
      }
      __syncthreads();
      if (warp == 0) {
        if (lane == 31) tile_total = inclusive;
      }
      __syncthreads();
      if (keep && base + inclusive - 1 < pass_cap) out[base + inclusive - 1] = i;
      base += tile_total;
    }
    if (pass == 1) base = min(base, pass_cap);
  }
}

// Rows with a sign change: the one thread at the boundary stores its position.
__global__ void sign_changes(const float* __restrict__ w, const int* __restrict__ row_size,
                             int* __restrict__ out) {
  __shared__ unsigned boundary;
  const int n = row_size[blockIdx.x];
  const float* row = w + blockIdx.x * 128;
  if (threadIdx.x == 0) boundary = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n - 1; i += blockDim.x)
    if (row[i] < 0.f && row[i + 1] >= 0.f) boundary = i + 1;
  __syncthreads();
  if (boundary == 0) return;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = boundary;
}

// A pivot: each thread's candidate, then the block's, read back from a shared slot.
__global__ void pivot_swap(float* __restrict__ x, int column) {
  __shared__ int pivot[1];
  __shared__ float staged[256];
  const int tx = threadIdx.x;
  int candidate = tx;
  if (tx == 0) pivot[0] = candidate;
  __syncthreads();
  candidate = pivot[0];
  if (candidate != column) {
    staged[tx] = x[tx];
    __syncthreads();
    x[tx] = staged[(tx + 1) % 256];
  }
}

void run(const int* in, int* out, int n, int cap, const float* w, const int* sizes, int* rows,
         float* x, int column) {
  hipLaunchKernelGGL(compact, 1, 256, 0, 0, in, out, n, cap);
  HIP_CHECK(hipGetLastError());
  hipLaunchKernelGGL(sign_changes, 64, 128, 0, 0, w, sizes, rows);
  HIP_CHECK(hipGetLastError());
  hipLaunchKernelGGL(pivot_swap, 1, 256, 0, 0, x, column);
  HIP_CHECK(hipGetLastError());
}
