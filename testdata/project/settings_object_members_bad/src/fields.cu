#include "../include/lattice_set.h"

__global__ void scale_field(double *field, double factor, int sites) {
  int site = blockIdx.x * blockDim.x + threadIdx.x;
  field[site] *= factor; // expect: unguarded-thread-index
}

__global__ void axpy_field(double *y, const double *x, double a, int sites) {
  int site = blockIdx.x * blockDim.x + threadIdx.x;
  if (site < sites) {
    y[site] += a * x[site];
  }
}

void scale(double *field, double factor, LatticeSet *set_ptr) {
  scale_field<<<set_ptr->gridDim, set_ptr->blockDim, 0, set_ptr->stream>>>(
      field, factor, set_ptr->lat_4dim);
  CUDA_CHECK(cudaGetLastError());
}

void axpy(double *y, const double *x, double a, LatticeSet &set) {
  axpy_field<<<set.gridDim, set.blockDim, 0, set.stream>>>(y, x, a, set.lat_4dim);
  CUDA_CHECK(cudaGetLastError());
}
