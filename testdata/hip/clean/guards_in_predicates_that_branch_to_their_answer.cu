// Clean: the bound tests live in small `__device__ bool` helpers that branch to their answer
// (`if (...) return true; return false;`) instead of returning the test: a thread that the helper
// says is outside the grid leaves, and the others index inside it.
#include <hip/hip_runtime.h>
#include "hip_check.h"

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
    HIP_CHECK(hipMalloc(&field, sizeof(float) * nx * ny));
    HIP_CHECK(hipMemset(field, 0, sizeof(float) * nx * ny));
    dim3 block(32, 8);
    dim3 grid((nx + 31) / 32, (ny + 7) / 8);
    hipLaunchKernelGGL(damp, grid, block, 0, 0, field, nullptr, nx, ny);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(scale, (nx + 255) / 256, 256, 0, 0, field, nx, 2.f);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(field));
    return 0;
}
