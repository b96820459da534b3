// Bad: the same voxel update with one block more than `floor(voxels / 256.0)`, so that every
// voxel is covered when the count is not a multiple of the block. The threads of that last block
// past `voxels` read and write past the end of the volume.
#include <cmath>
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void update_voxels(float *volume, const float *correction, float lambda,
                              unsigned long voxels)
{
    unsigned long idx = blockIdx.x * blockDim.x + threadIdx.x;
    volume[idx] = fmaxf(volume[idx] + lambda * correction[idx], 0.0f); // expect: unguarded-thread-index
}

void update_volume(float *d_volume, const float *d_correction, float lambda,
                   unsigned long voxels)
{
    const int threads = 256;
    dim3 grid((unsigned)floor(voxels / (double)threads) + 1);
    hipLaunchKernelGGL(update_voxels, grid, threads, 0, 0, d_volume, d_correction, lambda, voxels);
    HIP_CHECK(hipGetLastError());
}
