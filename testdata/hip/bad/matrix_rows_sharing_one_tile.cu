// Bad: every row of the 2-D block loads its matrix into the same tile, `tile[e & 7][e >> 3]`
// with no `threadIdx.y`: threads of two rows store one element with no barrier between them,
// and a row reads back another row's matrix.
#include "hip_check.h"

#define ROW_THREADS 16

__global__ void transpose_matrices(const float* in, float* out, int count) {
    __shared__ float tile[8][8];
    int tx = threadIdx.x;
    int matrix = blockIdx.x * blockDim.y + threadIdx.y;
    if (matrix < count) {
        for (int e = tx; e < 64; e += ROW_THREADS) {
            tile[e & 7][e >> 3] = in[matrix * 64 + e]; // expect: shared-memory-race
        }
    }
    __syncthreads();
    if (matrix < count) {
        for (int e = tx; e < 64; e += ROW_THREADS) {
            out[matrix * 64 + e] = tile[e >> 3][e & 7];
        }
    }
}

void launch_transpose(const float* in, float* out, int count, dim3 grid, dim3 block) {
    transpose_matrices<<<grid, block>>>(in, out, count);
    HIP_CHECK(hipGetLastError());
}
