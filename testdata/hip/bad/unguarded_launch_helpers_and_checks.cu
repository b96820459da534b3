// Bad: the shapes of launch_shapes_by_helpers_and_checks.cu where threads do run past the data.
// The helper rounds the grid up from the element count; a helper run on one path only leaves the
// grid unknown on the other; a check that only bounds the blocks from above, and one made before
// the count is halved, state nothing exact. Each kernel needs its bounds test.
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

__global__ void bias_add(float* x, const float* bias, int n, int width) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += bias[i % width]; // expect: unguarded-thread-index
}

void flat_shape(dim3& grid, dim3& block, int n) {
    block.x = 256;
    grid.x = (n + 255) / 256;
}

__global__ void clear(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 0.0f; // expect: unguarded-thread-index
}

__global__ void copy_rows(const float* src, float* dst, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    dst[i] = src[i]; // expect: unguarded-thread-index
}

__global__ void negate_rows(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = -x[i]; // expect: unguarded-thread-index
}

void add_bias(float* d_x, const float* d_bias, int n, int width) {
    dim3 grid, block;
    flat_shape(grid, block, n);
    hipLaunchKernelGGL(bias_add, grid, block, 0, 0, d_x, d_bias, n, width);
    HIP_CHECK(hipGetLastError());
}

void clear_all(float* d_x, int n, bool tiled) {
    dim3 grid, block(256);
    if (tiled) {
        flat_shape(grid, block, n);
    }
    hipLaunchKernelGGL(clear, grid, block, 0, 0, d_x, n);
    HIP_CHECK(hipGetLastError());
}

void copy_all(const float* d_src, float* d_dst, int batch, int heads, int width) {
    dim3 grid, block;
    int rows_per_block = 1;
    grid.x = (batch * heads + 3) / 4;
    while (rows_per_block < 4 && grid.x % 2 == 0) {
        grid.x /= 2;
        rows_per_block *= 2;
    }
    SHAPE_CHECK(grid.x * rows_per_block <= batch * heads + 3);
    block.x = rows_per_block * width;
    hipLaunchKernelGGL(copy_rows, grid, block, 0, 0, d_src, d_dst, batch * heads * width);
    HIP_CHECK(hipGetLastError());
}

void negate_all(float* d_x, int rows, int width) {
    dim3 grid, block;
    int rows_per_block = 1;
    grid.x = rows;
    SHAPE_CHECK(grid.x * rows_per_block == rows);
    while (rows_per_block < 4 && grid.x % 2 == 0) {
        grid.x /= 2;
        rows_per_block *= 2;
    }
    block.x = 2 * width;
    hipLaunchKernelGGL(negate_rows, grid, block, 0, 0, d_x, rows * width);
    HIP_CHECK(hipGetLastError());
}
