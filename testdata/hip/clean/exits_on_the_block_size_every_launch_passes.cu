// Clean: one thread per queue pair, the block as wide as the queue-pair count. The kernel
// leaves threads past `numQps` early, but every launch passes that count as the block size
// too (`<<<1, numQps>>>(..., numQps)`), so no thread takes the return and the barriers in the
// loop are reached by the whole block.
#include "hip_check.h"

__constant__ int channels[64];

__global__ void multi_qp(int iterations, int numQps, int* __restrict__ counters) {
  const int q = threadIdx.x;
  if (q >= numQps) return;
  for (int i = 0; i < iterations; ++i) {
    if (q == 0) counters[0] += channels[0];
    __syncthreads();
    counters[q + 1] += channels[q];
    __syncthreads();
  }
}

void run(int* counters, int numQps) {
  hipLaunchKernelGGL(multi_qp, 1, numQps, 0, 0, 10, numQps, counters);
  HIP_CHECK(hipGetLastError());
  hipLaunchKernelGGL(multi_qp, 1, numQps, 0, 0, 100, numQps, counters);
  HIP_CHECK(hipGetLastError());
}
