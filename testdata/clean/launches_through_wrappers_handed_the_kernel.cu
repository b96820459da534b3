// Kernels launched through wrappers that are handed the kernel: each call of the wrapper is a
// launch of the kernel it passes, with the grid the caller sets up. The `z` axis of `pack_slab`
// and the `y` axis of `scale_rows` are one block per plane or row, so those indices need no guard.
#include "cuda_check.h"

struct LaunchConfig
{
    unsigned gridSize[3]  = {1, 1, 1};
    unsigned blockSize[3] = {1, 1, 1};
};

template<typename... Args>
cudaError_t launchKernel(void (*kernel)(Args...), const LaunchConfig& c, void** args)
{
    dim3 grid(c.gridSize[0], c.gridSize[1], c.gridSize[2]);
    dim3 block(c.blockSize[0], c.blockSize[1], c.blockSize[2]);
    return cudaLaunchKernel(reinterpret_cast<void*>(kernel), grid, block, args, 0, 0);
}

template<typename K, typename... A>
cudaError_t launch(K k, dim3 grid, dim3 block, A... a)
{
    k<<<grid, block>>>(a...);
    return cudaGetLastError();
}

__global__ void pack_slab(const float* grid, float* packed, int nx, int ny, int nz)
{
    int iz = threadIdx.x + blockIdx.x * blockDim.x;
    int ix = threadIdx.z + blockIdx.z * blockDim.z;
    if (iz >= nz) return;
    packed[ix * nz + iz] = grid[ix * ny * nz + iz];
}

__global__ void scale_rows(float* out, const float* in, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= cols) return;
    out[row * cols + col] = 2.0f * in[row * cols + col];
}

cudaError_t pack(const float* grid, float* packed, int nx, int ny, int nz)
{
    // the arguments are copies: a local whose address is taken is not read for the grid
    int nxArg = nx, nyArg = ny, nzArg = nz;
    LaunchConfig config;
    config.blockSize[0] = 32;
    config.gridSize[0]  = (nz + 31) / 32;
    config.gridSize[2]  = nx;
    void* args[] = {&grid, &packed, &nxArg, &nyArg, &nzArg};
    CUDA_CHECK(launchKernel(pack_slab, config, args));
    return cudaDeviceSynchronize();
}

cudaError_t scale(float* out, const float* in, int rows, int cols)
{
    dim3 grid((cols + 127) / 128, rows);
    CUDA_CHECK(launch(scale_rows, grid, dim3(128), out, in, rows, cols));
    return cudaDeviceSynchronize();
}
