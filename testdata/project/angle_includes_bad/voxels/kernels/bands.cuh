// Bands of blockDim.y threads walk each column downwards, one band row at a time. The
// launcher in voxels/map.hpp does not make the band count divide dims.y, so the bands make
// different numbers of trips and the barriers in the loop split the block.
#pragma once
#include <cuda_runtime.h>
#include <voxels/dims.h>

__global__ void propagate_bands(const int* in, int* out, const Dims dims)
{
  __shared__ int carried[BAND_WIDTH];
  const int band_id = threadIdx.y, band_count = blockDim.y;
  const int tx = blockIdx.x * blockDim.x + threadIdx.x;
  int top = 0;
  if (band_id == band_count - 1) carried[threadIdx.x] = in[tx];
  __syncthreads();
  for (int ty = dims.y - 1 - band_id; ty >= 0; ty -= band_count) {
    top = carried[threadIdx.x];
    __syncthreads(); // expect: divergent-barrier
    out[ty * dims.x + tx] = top + in[ty * dims.x + tx];
    if (band_id == band_count - 1) carried[threadIdx.x] = out[ty * dims.x + tx];
    __syncthreads(); // expect: divergent-barrier
  }
}
