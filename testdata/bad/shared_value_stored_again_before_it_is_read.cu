// Bad: a shared value read after a barrier, but stored again in the same interval. The first
// lane of each warp stores where its warp's tile starts, and every thread tests the location
// with no barrier between: threads read whichever warp's value is there at that moment, and the
// barrier under the test is reached by some threads of the block only.
#include <cuda_runtime.h>

__global__ void tiles(float* __restrict__ out, int limit) {
  __shared__ int tile_start;
  __shared__ float staged[256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) tile_start = 0;
  __syncthreads();
  if (lane == 0) tile_start = warp * 32; // expect: shared-memory-race
  if (tile_start < limit) {
    staged[threadIdx.x] = out[threadIdx.x];
    __syncthreads(); // expect: divergent-barrier
    out[threadIdx.x] = staged[255 - threadIdx.x];
  }
}

cudaError_t run(float* out, int limit) {
  tiles<<<1, 256>>>(out, limit);
  return cudaGetLastError();
}
