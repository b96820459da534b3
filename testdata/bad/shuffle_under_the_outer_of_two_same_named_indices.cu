// The loop's `const int col_id` (one value per warp) lives only in the loop's block; the test
// around the reduction after the loop reads the function's `col_id`, built from threadIdx.x,
// so the lanes of a warp past `cols` skip the full-mask shuffle the others wait on.
#include <cuda_runtime.h>
#include "cuda_check.h"

__device__ float warp_sum(float val) {
    for (int mask = 16; mask > 0; mask /= 2)
        val += __shfl_xor_sync(0xffffffff, val, mask);
    return val;
}

__global__ void column_sums(int rows, int cols, const float* dy, float* partial) {
    __shared__ float tile[32][33];
    const int col_id = blockIdx.x * blockDim.x + threadIdx.x;
    for (int index = 0; index < 4; ++index) {
        const int col_id = blockIdx.x * blockDim.x + threadIdx.y + index * blockDim.y;
        const int row = blockIdx.y * blockDim.y + threadIdx.y;
        tile[threadIdx.y + index * blockDim.y][threadIdx.x] =
            (col_id < cols && row < rows) ? dy[row * cols + col_id] : 0.f;
    }
    __syncthreads();
    if (col_id < cols) {
        float g = warp_sum(tile[threadIdx.x][threadIdx.y]);  // expect: partial-warp-shuffle
        if (threadIdx.y == 0) partial[blockIdx.y * cols + col_id] = g;
    }
}

void column_partials(int rows, int cols, const float* dy, float* partial) {
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    column_sums<<<grid, dim3(32, 8)>>>(rows, cols, dy, partial);
    CUDA_CHECK(cudaGetLastError());
}
