// Bad: the exit lets the thread whose voxel index equals the grid's element count through, and
// it reads and writes one element past buffers of exactly nx * ny * nz voxels.
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define THREADS 512

__global__ void truncate_distance(const float *occupancy, float *tdf, int nx, int ny, int nz)
{
    int voxel = blockIdx.x * THREADS + threadIdx.x;
    if (voxel > nx * ny * nz)
        return;
    if (occupancy[voxel] > 0.f) { // expect: out-of-range-access
        tdf[voxel] = 1.f; // expect: out-of-range-access
        return;
    }
    tdf[voxel] = 0.f; // expect: out-of-range-access
}

void compute_tdf(const float *occupancy, float *tdf, int nx, int ny, int nz)
{
    int voxels = nx * ny * nz;
    hipLaunchKernelGGL(truncate_distance, (voxels + THREADS - 1) / THREADS, THREADS, 0, 0, occupancy, tdf, nx, ny, nz);
    HIP_CHECK(hipGetLastError());
}
