// Clean: one 8x8 matrix per row of a 2-D block (16 threads wide, a few rows deep), the block
// shape handed through the launcher as a `dim3`. Each row of threads loads its own matrix,
// `tile[threadIdx.y]`, stepping by the 16 threads of its row, so no two threads store one
// element. With no constant shape in sight, the loop's step states the row's width.
#include "hip_check.h"

#define ROW_THREADS 16
#define ROWS 4

__global__ void transpose_matrices(const float* in, float* out, int count) {
    __shared__ float tile[ROWS][8][8];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int matrix = blockIdx.x * blockDim.y + ty;
    if (matrix < count) {
        for (int e = tx; e < 64; e += ROW_THREADS) {
            tile[ty][e & 7][e >> 3] = in[matrix * 64 + e];
        }
    }
    __syncthreads();
    if (matrix < count) {
        for (int e = tx; e < 64; e += ROW_THREADS) {
            out[matrix * 64 + e] = tile[ty][e >> 3][e & 7];
        }
    }
}

void launch_transpose(const float* in, float* out, int count, dim3 grid, dim3 block) {
    transpose_matrices<<<grid, block>>>(in, out, count);
    HIP_CHECK(hipGetLastError());
}
