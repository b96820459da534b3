// Bad: the size changes between the grid and the test, so the test says nothing of the grid.
#include "cuda_check.h"

__global__ void gemv_full_tiles(const float* w, const float* x, float* out, int rows, int cols) {
    int row = blockIdx.x * 64 + threadIdx.x;
    float acc = 0.f;
    for (int k = 0; k < cols; ++k) {
        acc += w[(long)row * cols + k] * x[k]; // expect: unguarded-thread-index
    }
    out[row] = acc;
}

void gemv(const float* w, const float* x, float* out, int rows, int cols, int extra) {
    dim3 grid((rows + 63) / 64);
    rows += extra;
    if (rows % 64 == 0) {
        gemv_full_tiles<<<grid, 64>>>(w, x, out, rows, cols);
        CUDA_CHECK(cudaGetLastError());
    }
}
