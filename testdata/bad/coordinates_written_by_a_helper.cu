// Bad: coordinates written by a helper bound the flat index only when the helper writes them
// on every path and the slowest one is tested.
#include <cuda_runtime.h>
#include "cuda_check.h"

__device__ inline void split3(int id, int nx, int ny, int &x, int &y, int &z)
{
    z = id / (nx * ny);
    y = (id - z * nx * ny) / nx;
    x = id - z * nx * ny - y * nx;
}

// only the two fast coordinates are tested: the last block's tail runs past nx*ny*nz
__global__ void copy_plane_tested(const float *in, float *out, int nx, int ny)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    int x, y, z;
    split3(id, nx, ny, x, y, z);
    if (x < nx && y < ny) {
        out[id] = in[id]; // expect: unguarded-thread-index
    }
}

void launch_plane(const float *in, float *out, int nx, int ny, int nz)
{
    int n = nx * ny * nz;
    copy_plane_tested<<<(n + 255) / 256, 256>>>(in, out, nx, ny);
    CUDA_CHECK(cudaGetLastError());
}

// the helper writes `z` only on some paths: what the caller's `z` holds is not its quotient
__device__ inline void maybe_split(int id, int nx, int ny, int &z)
{
    if (id % 2 == 0)
        z = id / (nx * ny);
}

__global__ void copy_even(const float *in, float *out, int nx, int ny, int nz)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    int z = 0;
    maybe_split(id, nx, ny, z);
    if (z < nz) {
        out[id] = in[id]; // expect: unguarded-thread-index
    }
}

// a second helper overwrites the coordinate with something else before the test
__device__ inline void reset(int &v) { v = 0; }

__global__ void copy_reset(const float *in, float *out, int nx, int ny, int nz)
{
    int id = threadIdx.x + blockIdx.x * blockDim.x;
    int x, y, z;
    split3(id, nx, ny, x, y, z);
    reset(z);
    if (z < nz) {
        out[id] = in[id]; // expect: unguarded-thread-index
    }
}

void launch_rest(const float *in, float *out, int nx, int ny, int nz)
{
    int n = nx * ny * nz;
    copy_even<<<(n + 255) / 256, 256>>>(in, out, nx, ny, nz);
    CUDA_CHECK(cudaGetLastError());
    copy_reset<<<(n + 255) / 256, 256>>>(in, out, nx, ny, nz);
    CUDA_CHECK(cudaGetLastError());
}
