// The launcher: included from voxels/map.cu as <voxels/map.hpp>, and it reaches its kernel
// through <voxels/kernels/bands.cuh>. The grid covers dims.x exactly (it is a whole number of
// bands wide), and a band count that does not divide dims.y falls back to one band.
#pragma once
#include <cuda_runtime.h>
#include <voxels/dims.h>
#include <voxels/kernels/bands.cuh>

inline cudaError_t propagate(const int* in, int* out, Dims dims, unsigned bands)
{
  if (dims.x % BAND_WIDTH) return cudaErrorInvalidValue;
  if (bands == 0 || dims.y % bands) bands = 1;
  dim3 block(BAND_WIDTH, bands);
  dim3 grid(dims.x / BAND_WIDTH);
  propagate_bands<<<grid, block>>>(in, out, dims);
  return cudaGetLastError();
}
