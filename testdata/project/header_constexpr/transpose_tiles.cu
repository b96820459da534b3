// Each block of `transpose_tiles` is one tile of kWarpsPerTile warps: the tile a thread works on
// is `blockIdx.x` whichever warp it is in, so the early exit past the last tile is taken by whole
// blocks, and every thread of a block that stays reaches the barrier. The warp size and the warps
// per tile are constants of the included header. `transpose_half_tiles` runs two tiles per block,
// so the exit splits the last block when the count of tiles is odd.
#include <cuda_runtime.h>
#include "tiling.cuh"

using namespace tiling;

constexpr size_t kThreadsPerTile = static_cast<size_t>(THREADS_PER_WARP) * kWarpsPerTile;

__global__ void __launch_bounds__(kThreadsPerTile)
    transpose_tiles(const float* in, float* out, size_t num_tiles) {
  __shared__ float tile[kThreadsPerTile];
  const int warp_id = threadIdx.x / THREADS_PER_WARP;
  const size_t tile_id = static_cast<size_t>(blockIdx.x) * blockDim.x / kThreadsPerTile + warp_id / kWarpsPerTile;
  if (tile_id >= num_tiles) {
    return;
  }
  tile[threadIdx.x] = in[tile_id * kThreadsPerTile + threadIdx.x];
  __syncthreads();
  out[tile_id * kThreadsPerTile + threadIdx.x] = tile[kThreadsPerTile - 1 - threadIdx.x];
}

__global__ void __launch_bounds__(2 * kThreadsPerTile)
    transpose_half_tiles(const float* in, float* out, size_t num_tiles) {
  __shared__ float tile[2 * kThreadsPerTile];
  const int warp_id = threadIdx.x / THREADS_PER_WARP;
  const size_t tile_id = static_cast<size_t>(blockIdx.x) * blockDim.x / kThreadsPerTile + warp_id / kWarpsPerTile;
  if (tile_id >= num_tiles) {
    return;
  }
  tile[threadIdx.x] = in[tile_id * kThreadsPerTile + threadIdx.x % kThreadsPerTile];
  __syncthreads(); // expect: divergent-barrier
  out[tile_id * kThreadsPerTile + threadIdx.x % kThreadsPerTile] = tile[2 * kThreadsPerTile - 1 - threadIdx.x];
}

cudaError_t transpose_all(const float* in, float* out, size_t num_tiles, cudaStream_t stream) {
  transpose_tiles<<<num_tiles, kThreadsPerTile, 0, stream>>>(in, out, num_tiles);
  transpose_half_tiles<<<(num_tiles + 1) / 2, 512, 0, stream>>>(in, out, num_tiles);
  return cudaGetLastError();
}
