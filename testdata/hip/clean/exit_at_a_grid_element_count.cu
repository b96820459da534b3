// Clean: the exit stops every thread at or past the grid's element count, so the buffers of
// exactly nx * ny * nz voxels are read and written inside.
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define THREADS 512

__global__ void truncate_distance(const float *occupancy, float *tdf, int nx, int ny, int nz)
{
    int voxel = blockIdx.x * THREADS + threadIdx.x;
    if (voxel >= nx * ny * nz)
        return;
    if (occupancy[voxel] > 0.f) {
        tdf[voxel] = 1.f;
        return;
    }
    tdf[voxel] = 0.f;
}

void compute_tdf(const float *occupancy, float *tdf, int nx, int ny, int nz)
{
    int voxels = nx * ny * nz;
    hipLaunchKernelGGL(truncate_distance, (voxels + THREADS - 1) / THREADS, THREADS, 0, 0, occupancy, tdf, nx, ny, nz);
    HIP_CHECK(hipGetLastError());
}
