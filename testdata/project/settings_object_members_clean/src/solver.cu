#include "../include/lattice_set.h"

__global__ void zero_field(double *field) {
  int site = blockIdx.x * blockDim.x + threadIdx.x;
  field[site] = 0.0;
}

void solve(const int *extents) {
  LatticeSet set;
  set.init(extents);
  CUDA_CHECK(cudaStreamCreate(&set.stream));
  double *field = nullptr;
  CUDA_CHECK(cudaMallocAsync(&field, set.lat_4dim * sizeof(double), set.stream));
  zero_field<<<set.gridDim, set.blockDim, 0, set.stream>>>(field);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaFreeAsync(field, set.stream));
  CUDA_CHECK(cudaStreamSynchronize(set.stream));
  CUDA_CHECK(cudaStreamDestroy(set.stream));
}
