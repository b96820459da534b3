// Bad: one thread per queue pair, but the block is rounded up to whole warps. The threads
// past `numQps` in the last warp return before the barriers in the loop, which the rest of the
// block then waits at.
#include <cuda_runtime.h>

__global__ void multi_qp(int iterations, int numQps, int* __restrict__ counters) {
  const int q = threadIdx.x;
  if (q >= numQps) return;
  for (int i = 0; i < iterations; ++i) {
    if (q == 0) counters[0] += 1;
    __syncthreads(); // expect: divergent-barrier
    counters[q + 1] += q;
    __syncthreads();
  }
}

cudaError_t run(int* counters, int numQps) {
  multi_qp<<<1, (numQps + 31) / 32 * 32>>>(10, numQps, counters);
  return cudaGetLastError();
}
