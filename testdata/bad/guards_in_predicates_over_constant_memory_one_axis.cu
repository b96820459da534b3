// Bad: a pseudo-spectral solver keeps its grid sizes in constant memory and its bounds test in
// a predicate helper; `in_kx_range(idx)` bounds only `idx`, so threads of the last block on `y`
// (the grid is rounded up to 16 modes) read `ky` and `phi` past the `nyc` modes
// they hold.
#include <cuda_runtime.h>
#include "cuda_check.h"

__constant__ int nx, ny, nyc, nz;

__device__ bool in_kx_range(int idx) {
    if (idx < nx)
        return true;
    else
        return false;
}

__global__ void solve_potential(float2* phi, const float2* g, const float* kx, const float* ky) {
    unsigned int idy = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int idx = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int idz = blockIdx.z * blockDim.z + threadIdx.z;
    if (in_kx_range(idx) && idz < nz) {
        unsigned int idxyz = idy + nyc * (idx + nx * idz);
        float k2 = ky[idy] * ky[idy] + kx[idx] * kx[idx]; // expect: unguarded-thread-index
        phi[idxyz] = make_float2(g[idxyz].x / k2, g[idxyz].y / k2); // expect: unguarded-thread-index
    }
}

int main() {
    const int h_nx = 64, h_ny = 64, h_nyc = h_ny / 2 + 1, h_nz = 32;
    const size_t cells = (size_t)h_nx * h_nyc * h_nz;
    CUDA_CHECK(cudaMemcpyToSymbol(nx, &h_nx, sizeof(int)));
    CUDA_CHECK(cudaMemcpyToSymbol(ny, &h_ny, sizeof(int)));
    CUDA_CHECK(cudaMemcpyToSymbol(nyc, &h_nyc, sizeof(int)));
    CUDA_CHECK(cudaMemcpyToSymbol(nz, &h_nz, sizeof(int)));
    float2 *phi = nullptr, *g = nullptr;
    float *kx = nullptr, *ky = nullptr;
    CUDA_CHECK(cudaMalloc(&phi, cells * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&g, cells * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&kx, h_nx * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ky, h_nyc * sizeof(float)));
    CUDA_CHECK(cudaMemset(g, 0, cells * sizeof(float2)));
    CUDA_CHECK(cudaMemset(kx, 0, h_nx * sizeof(float)));
    CUDA_CHECK(cudaMemset(ky, 0, h_nyc * sizeof(float)));
    dim3 block(16, 4, 4);
    dim3 grid((h_nyc + 15) / 16, (h_nx + 3) / 4, (h_nz + 3) / 4);
    solve_potential<<<grid, block>>>(phi, g, kx, ky);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(phi));
    CUDA_CHECK(cudaFree(g));
    CUDA_CHECK(cudaFree(kx));
    CUDA_CHECK(cudaFree(ky));
    return 0;
}
