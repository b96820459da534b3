// Clean: the exit stops every thread at or past the grid's element count, so the buffers of
// exactly nx * ny * nz voxels are read and written inside.
#include <cuda_runtime.h>
#include "cuda_check.h"

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
    truncate_distance<<<(voxels + THREADS - 1) / THREADS, THREADS>>>(occupancy, tdf, nx, ny, nz);
    CUDA_CHECK(cudaGetLastError());
}
