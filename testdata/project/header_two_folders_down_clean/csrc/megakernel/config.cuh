// Shared by every experiment: a build script puts this folder on the include path.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr int WARP_SIZE = 32;
constexpr int NUM_WARPS = 8;
constexpr int BLOCK_SIZE = WARP_SIZE * NUM_WARPS;

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t status = (call);                                               \
    if (status != cudaSuccess) {                                               \
      fprintf(stderr, "%s\n", cudaGetErrorString(status));                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)
