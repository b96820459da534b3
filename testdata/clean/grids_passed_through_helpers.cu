// Clean: grid helpers that hand back, on an axis, exactly the count their caller passes
// (`return {x, heads}` with `int x = rows;`, `grid.x = rows;`, one of several `return`s), each
// called with a count floored by the block. The host only takes sizes the tile divides, so the
// grid covers the data exactly and the kernels need no bounds test.
#include <cassert>
#include "cuda_check.h"

__global__ void scale_rows(float* out, const float* in, int rows, float alpha) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const int h = blockIdx.y;
    out[h * rows + r] = alpha * in[h * rows + r];
}

static dim3 grid_for(int rows, int heads) {
    int x = rows;
    return {x, heads};
}

void scale_all(float* d_out, const float* d_in, int rows, int heads, float alpha) {
    assert(rows % 32 == 0);
    dim3 grid = grid_for(rows / 32, heads);
    scale_rows<<<grid, 32>>>(d_out, d_in, rows, alpha);
    CUDA_CHECK(cudaGetLastError());
}

__global__ void relu(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

static void set_rows(dim3& grid, dim3& block, int rows) {
    grid.x = rows;
    block.x = 128;
}

void relu_all(float* d_x, int n) {
    assert(n % 128 == 0);
    dim3 grid, block;
    set_rows(grid, block, n / 128);
    relu<<<grid, block>>>(d_x, n);
    CUDA_CHECK(cudaGetLastError());
}

__global__ void blur(float* out, const float* in, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * width + x] = 0.5f * (in[y * width + x] + in[y * width + (x + 1) % width]);
}

// a single row of tiles as a 1D grid
static dim3 tile_grid(unsigned tiles_x, unsigned tiles_y) {
    if (tiles_y <= 1) {
        return dim3(tiles_x);
    }
    return dim3(tiles_x, tiles_y);
}

void blur_image(float* d_out, const float* d_in, int width, int height) {
    assert(width % 16 == 0 && height % 16 == 0);
    dim3 block(16, 16);
    blur<<<tile_grid(width / 16, height / 16), block>>>(d_out, d_in, width, height);
    CUDA_CHECK(cudaGetLastError());
}
