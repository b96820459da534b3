// Clean: a voxel update over a volume whose size the caller pads to whole blocks. The grid is
// `floor(voxels / 256.0)` blocks of 256 threads, so the threads stop at or before the last voxel
// and the kernel needs no guard; the floating-point division is rounded down, not up.
#include <cmath>
#include <cuda_runtime.h>

__global__ void update_voxels(float *volume, const float *correction, float lambda,
                              unsigned long voxels)
{
    unsigned long idx = blockIdx.x * blockDim.x + threadIdx.x;
    volume[idx] = fmaxf(volume[idx] + lambda * correction[idx], 0.0f);
}

void update_volume(float *d_volume, const float *d_correction, float lambda,
                   unsigned long voxels)
{
    const int threads = 256;
    dim3 grid((unsigned)floor(voxels / (double)threads));
    update_voxels<<<grid, threads>>>(d_volume, d_correction, lambda, voxels);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        printf("update_voxels: %s\n", cudaGetErrorString(err));
}
