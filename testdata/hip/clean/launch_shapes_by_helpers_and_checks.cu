// Clean: launch shapes the launching function does not write itself. A helper fills the grid
// and block it is handed by reference (one block per query row, a block per row's keys), or by
// pointer; a check before the launch states that the grid's blocks times the rows each block
// takes are the row count, however the count was halved to get there. Every thread of these
// grids has an element, so no kernel needs a bounds test.
#include <cstdio>
#include <cstdlib>
#include "hip_check.h"

#define SHAPE_CHECK(cond)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "shape check failed: %s\n", #cond);               \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// grid (batch, len), block len: one thread per key of each query row
__global__ void causal_mask(float* mask, const float* valid, int len) {
    const int key = threadIdx.x;
    const int query = blockIdx.y;
    const int b = blockIdx.x;
    const float keep = key <= query ? 1.0f : 0.0f;
    mask[(b * len + query) * len + key] = keep * valid[b * len + key];
}

void mask_shape(dim3& grid, dim3& block, int batch, int len) {
    grid.x = batch;
    grid.y = len;
    block.x = len;
}

__global__ void scale_rows(float* x, int cols, float factor) {
    x[blockIdx.x * cols + threadIdx.x] *= factor;
}

void row_shape(dim3* grid, int rows) {
    grid->x = rows;
}

// rows_per_block rows of `width` values per block: `n` values in all
__global__ void copy_rows(const float* src, float* dst, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    dst[i] = src[i];
}

void build_masks(float* d_mask, const float* d_valid, int batch, int len, hipStream_t stream) {
    dim3 grid, block;
    mask_shape(grid, block, batch, len);
    hipLaunchKernelGGL(causal_mask, grid, block, 0, stream, d_mask, d_valid, len);
    HIP_CHECK(hipGetLastError());
}

void scale(float* d_x, int rows, int cols) {
    dim3 grid;
    row_shape(&grid, rows);
    hipLaunchKernelGGL(scale_rows, grid, cols, 0, 0, d_x, cols, 0.5f);
    HIP_CHECK(hipGetLastError());
}

void copy_all(const float* d_src, float* d_dst, int batch, int heads, int width) {
    dim3 grid, block;
    int rows_per_block = 1;
    grid.x = batch * heads;
    while (rows_per_block < 4 && grid.x % 2 == 0) {
        grid.x /= 2;
        rows_per_block *= 2;
    }
    SHAPE_CHECK(grid.x * rows_per_block == batch * heads);
    block.x = rows_per_block * width;
    hipLaunchKernelGGL(copy_rows, grid, block, 0, 0, d_src, d_dst, batch * heads * width);
    HIP_CHECK(hipGetLastError());
}

void copy_pairs(const float* d_src, float* d_dst, int rows, int width) {
    int blocks = rows;
    if (blocks % 2 == 0) blocks /= 2;
    if (blocks * (rows / blocks) != rows) {
        fprintf(stderr, "rows %d do not split into %d blocks\n", rows, blocks);
        return;
    }
    hipLaunchKernelGGL(copy_rows, blocks, rows / blocks * width, 0, 0, d_src, d_dst, rows * width);
    HIP_CHECK(hipGetLastError());
}
