// The same buffers with the second slab's count assigned the cell count, not the thread count,
// before its allocations: the tail threads of its rounded-up grid write past them.
#include "cuda_check.h"

const int MTPB = 512;

struct Pair {
  float *f, *b;
};

__global__ void update_psi(float* psi, const float* field, int slab) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  psi[p] = 0.9f * psi[p] + 0.1f * field[p % slab];  // expect: unguarded-thread-index
}

int main() {
  const int nx = 100, ny = 121, nz = 63, npml = 10;
  const int slab_x = npml * ny * nz;
  const int slab_y = nx * npml * nz;
  const int blocks_x = slab_x % MTPB == 0 ? slab_x / MTPB : slab_x / MTPB + 1;
  const int blocks_y = slab_y % MTPB == 0 ? slab_y / MTPB : slab_y / MTPB + 1;
  const dim3 grid_x(blocks_x), grid_y(blocks_y), block(MTPB);

  float* field = nullptr;
  CUDA_CHECK(cudaMalloc(&field, nx * ny * nz * sizeof(float)));
  CUDA_CHECK(cudaMemset(field, 0, nx * ny * nz * sizeof(float)));

  int threads = 0;
  Pair psi_x, psi_y;
  threads = blocks_x * MTPB;
  size_t bytes_x = threads * sizeof(float);
  CUDA_CHECK(cudaMalloc((void**)&psi_x.f, bytes_x));
  CUDA_CHECK(cudaMalloc((void**)&psi_x.b, bytes_x));
  threads = blocks_y * MTPB;
  threads = slab_y;
  size_t bytes_y = threads * sizeof(float);
  CUDA_CHECK(cudaMalloc((void**)&psi_y.f, bytes_y));
  CUDA_CHECK(cudaMalloc((void**)&psi_y.b, bytes_y));
  CUDA_CHECK(cudaMemset(psi_x.f, 0, bytes_x));
  CUDA_CHECK(cudaMemset(psi_x.b, 0, bytes_x));
  CUDA_CHECK(cudaMemset(psi_y.f, 0, bytes_y));
  CUDA_CHECK(cudaMemset(psi_y.b, 0, bytes_y));

  for (int step = 0; step < 100; ++step) {
    update_psi<<<grid_x, block>>>(psi_x.f, field, slab_x);
    update_psi<<<grid_x, block>>>(psi_x.b, field, slab_x);
    update_psi<<<grid_y, block>>>(psi_y.f, field, slab_y);
    update_psi<<<grid_y, block>>>(psi_y.b, field, slab_y);
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(psi_x.f));
  CUDA_CHECK(cudaFree(psi_x.b));
  CUDA_CHECK(cudaFree(psi_y.f));
  CUDA_CHECK(cudaFree(psi_y.b));
  CUDA_CHECK(cudaFree(field));
  return 0;
}
