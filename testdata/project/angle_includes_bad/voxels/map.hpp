// The launcher, reached as <voxels/map.hpp>: it takes the caller's band count as it is, so
// with 8 bands over a column of 100 rows the lower bands make one trip fewer than the upper
// ones and leave the block at the barriers of the band loop (voxels/kernels/bands.cuh).
#pragma once
#include <cuda_runtime.h>
#include <voxels/dims.h>
#include <voxels/kernels/bands.cuh>

inline cudaError_t propagate(const int* in, int* out, Dims dims, unsigned bands)
{
  if (dims.x % BAND_WIDTH) return cudaErrorInvalidValue;
  dim3 block(BAND_WIDTH, bands);
  dim3 grid(dims.x / BAND_WIDTH);
  propagate_bands<<<grid, block>>>(in, out, dims);
  return cudaGetLastError();
}
