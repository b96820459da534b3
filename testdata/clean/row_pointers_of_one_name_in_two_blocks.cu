// A shallow-water step that declares a row pointer `eta_row` twice: once in the loop that loads
// the tile (the row clamped into the padded field), once for the output row under the guard.
// Each read of `eta_row` is the pointer declared in its own block, not the other one.
#include <cstdio>
#include "cuda_check.h"

__global__ void swe_step(const float* eta0, int pitch0, float* eta1, int pitch1, int nx, int ny) {
    __shared__ float tile[20][20];
    const int bx = blockDim.x * blockIdx.x, by = blockDim.y * blockIdx.y;
    const int ti = bx + threadIdx.x + 2;
    const int tj = by + threadIdx.y + 2;
    for (int j = threadIdx.y; j < 20; j += blockDim.y) {
        const int l = min(max(by + j, 0), ny + 3);
        const float* const eta_row = (const float*)((const char*)eta0 + pitch0 * l);
        for (int i = threadIdx.x; i < 20; i += blockDim.x) {
            const int k = min(max(bx + i, 0), nx + 3);
            tile[j][i] = eta_row[k];
        }
    }
    __syncthreads();
    if (ti < nx + 2 && tj < ny + 2) {
        float* const eta_row = (float*)((char*)eta1 + pitch1 * tj);
        eta_row[ti] = tile[threadIdx.y + 2][threadIdx.x + 2];
    }
}

void step(const float* d_eta0, float* d_eta1, size_t pitch, int nx, int ny) {
    dim3 block(16, 16);
    dim3 grid((nx + 15) / 16, (ny + 15) / 16);
    swe_step<<<grid, block>>>(d_eta0, (int)pitch, d_eta1, (int)pitch, nx, ny);
    CUDA_CHECK(cudaGetLastError());
}
