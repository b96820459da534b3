// The launch configuration of every kernel lives in a settings object, set once by its init
// method: one thread per site, `lat_4dim / BLOCK` blocks rounded up: the last block has threads
// past the lattice.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t status = (call);                                               \
    if (status != cudaSuccess) {                                               \
      fprintf(stderr, "%s\n", cudaGetErrorString(status));                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
#define BLOCK_SIZE 64

struct LatticeSet {
  int lat_1dim[4];
  int lat_4dim;
  int gridDim;
  int blockDim;
  cudaStream_t stream;

  void init(const int *extents) {
    for (int d = 0; d < 4; d++) {
      lat_1dim[d] = extents[d];
    }
    lat_4dim = lat_1dim[0] * lat_1dim[1] * lat_1dim[2] * lat_1dim[3];
    blockDim = BLOCK_SIZE;
    gridDim = (lat_4dim + BLOCK_SIZE - 1) / BLOCK_SIZE;
  }
};
