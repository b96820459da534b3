// The same kernel with the output row written outside any guard: the tile loop's clamped
// `eta_row` is safe, the second `eta_row` of that name is not, and the finding is the second's.
#include <cstdio>
#include "hip_check.h"

__global__ void swe_step(const float* eta0, float* eta1, int width, int nx, int ny) {
    __shared__ float tile[20][20];
    const int bx = blockDim.x * blockIdx.x, by = blockDim.y * blockIdx.y;
    const int ti = bx + threadIdx.x;
    const int tj = by + threadIdx.y;
    for (int j = threadIdx.y; j < 20; j += blockDim.y) {
        const int l = min(by + j, ny - 1);
        const float* const eta_row = eta0 + width * l;
        for (int i = threadIdx.x; i < 20; i += blockDim.x) {
            const int k = min(bx + i, nx - 1);
            tile[j][i] = eta_row[k];
        }
    }
    __syncthreads();
    {
        float* const eta_row = eta1 + width * tj;
        eta_row[ti] = tile[threadIdx.y][threadIdx.x]; // expect: unguarded-thread-index
    }
}

void step(int nx, int ny) {
    float *d_eta0, *d_eta1;
    HIP_CHECK(hipMalloc(&d_eta0, nx * ny * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_eta1, nx * ny * sizeof(float)));
    HIP_CHECK(hipMemset(d_eta0, 0, nx * ny * sizeof(float)));
    dim3 block(16, 16);
    dim3 grid((nx + 15) / 16, (ny + 15) / 16);
    hipLaunchKernelGGL(swe_step, grid, block, 0, 0, d_eta0, d_eta1, nx, nx, ny);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_eta0));
    HIP_CHECK(hipFree(d_eta1));
}
