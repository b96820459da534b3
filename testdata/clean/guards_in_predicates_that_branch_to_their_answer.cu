// Clean: the bound tests live in small `__device__ bool` helpers that branch to their answer
// (`if (...) return true; return false;`) instead of returning the test: a thread that the helper
// says is outside the grid leaves, and the others index inside it.
#include <cuda_runtime.h>
#include "cuda_check.h"

__device__ bool outside(int ix, int iy, int nx, int ny) {
    if (ix >= nx || iy >= ny) {
        return true;
    }
    return false;
}

__device__ bool unmasked(int ix, int nx) {
    if (ix < nx) return true;
    return false;
}

__global__ void damp(float* __restrict__ field, const float* __restrict__ mask, int nx, int ny) {
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    const int iy = blockIdx.y * blockDim.y + threadIdx.y;
    if (outside(ix, iy, nx, ny)) return;
    field[iy * nx + ix] *= 0.5f;
}

__global__ void scale(float* __restrict__ field, int nx, float factor) {
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (unmasked(ix, nx)) field[ix] *= factor;
}

int main() {
    const int nx = 1000, ny = 300;
    float* field = nullptr;
    CUDA_CHECK(cudaMalloc(&field, sizeof(float) * nx * ny));
    CUDA_CHECK(cudaMemset(field, 0, sizeof(float) * nx * ny));
    dim3 block(32, 8);
    dim3 grid((nx + 31) / 32, (ny + 7) / 8);
    damp<<<grid, block>>>(field, nullptr, nx, ny);
    CUDA_CHECK(cudaGetLastError());
    scale<<<(nx + 255) / 256, 256>>>(field, nx, 2.f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(field));
    return 0;
}
