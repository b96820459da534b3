// The same buffers with the second slab's count assigned the cell count, not the thread count,
// before its allocations: the tail threads of its rounded-up grid write past them.
#include "hip_check.h"

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
  HIP_CHECK(hipMalloc(&field, nx * ny * nz * sizeof(float)));
  HIP_CHECK(hipMemset(field, 0, nx * ny * nz * sizeof(float)));

  int threads = 0;
  Pair psi_x, psi_y;
  threads = blocks_x * MTPB;
  size_t bytes_x = threads * sizeof(float);
  HIP_CHECK(hipMalloc((void**)&psi_x.f, bytes_x));
  HIP_CHECK(hipMalloc((void**)&psi_x.b, bytes_x));
  threads = blocks_y * MTPB;
  threads = slab_y;
  size_t bytes_y = threads * sizeof(float);
  HIP_CHECK(hipMalloc((void**)&psi_y.f, bytes_y));
  HIP_CHECK(hipMalloc((void**)&psi_y.b, bytes_y));
  HIP_CHECK(hipMemset(psi_x.f, 0, bytes_x));
  HIP_CHECK(hipMemset(psi_x.b, 0, bytes_x));
  HIP_CHECK(hipMemset(psi_y.f, 0, bytes_y));
  HIP_CHECK(hipMemset(psi_y.b, 0, bytes_y));

  for (int step = 0; step < 100; ++step) {
    hipLaunchKernelGGL(update_psi, grid_x, block, 0, 0, psi_x.f, field, slab_x);
    hipLaunchKernelGGL(update_psi, grid_x, block, 0, 0, psi_x.b, field, slab_x);
    hipLaunchKernelGGL(update_psi, grid_y, block, 0, 0, psi_y.f, field, slab_y);
    hipLaunchKernelGGL(update_psi, grid_y, block, 0, 0, psi_y.b, field, slab_y);
    HIP_CHECK(hipGetLastError());
  }
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipFree(psi_x.f));
  HIP_CHECK(hipFree(psi_x.b));
  HIP_CHECK(hipFree(psi_y.f));
  HIP_CHECK(hipFree(psi_y.b));
  HIP_CHECK(hipFree(field));
  return 0;
}
