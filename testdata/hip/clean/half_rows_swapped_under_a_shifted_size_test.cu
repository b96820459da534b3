// Flips each row of a matrix in place: the threads of the first half of a row swap their element
// with its mirror. The test `tid < cols >> 1` (read by the grammar as a template `tid<cols>`
// compared with `> 1`) keeps every thread inside its row.
#include <cstdio>
#include "hip_check.h"

__global__ void fliplr(float* data, int cols) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    int row = blockIdx.y;
    if (tid < cols >> 1) {
        float kept = data[row * cols + tid];
        data[row * cols + tid] = data[row * cols + (cols - 1 - tid)];
        data[row * cols + (cols - 1 - tid)] = kept;
    }
}

void flip_rows(float* d_data, int rows, int cols) {
    if (rows > 65535) return; // one block row per matrix row
    dim3 block(256);
    dim3 grid((cols / 2 + block.x - 1) / block.x, rows);
    fliplr<<<grid, block>>>(d_data, cols);
    HIP_CHECK(hipGetLastError());
}
