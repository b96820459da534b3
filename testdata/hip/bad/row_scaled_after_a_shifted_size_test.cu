// The test `tid < cols >> 1` guards only its own branch: the scaling after it runs in every
// thread of the rounded-up grid, past the end of each row and of the last one.
#include <cstdio>
#include "hip_check.h"

__global__ void flip_and_scale(float* data, int cols) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    int row = blockIdx.y;
    if (tid < cols >> 1) {
        float kept = data[row * cols + tid];
        data[row * cols + tid] = data[row * cols + (cols - 1 - tid)];
        data[row * cols + (cols - 1 - tid)] = kept;
    }
    data[row * cols + tid] *= 2.0f; // expect: unguarded-thread-index
}

void flip_rows(int rows, int cols) {
    float* d_data;
    HIP_CHECK(hipMalloc(&d_data, rows * cols * sizeof(float)));
    HIP_CHECK(hipMemset(d_data, 0, rows * cols * sizeof(float)));
    if (rows > 65535) return; // one block row per matrix row
    dim3 block(256);
    dim3 grid((cols + block.x - 1) / block.x, rows);
    flip_and_scale<<<grid, block>>>(d_data, cols);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_data));
}
