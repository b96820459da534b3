// Clean: the inner `const int col_id` (one value per warp: threadIdx.y with blocks 32 wide)
// shadows the outer `col_id` built from threadIdx.x; the test before the shuffle reads the inner
// one, so whole warps pass it or skip it together.
#include <hip/hip_runtime.h>
#include "hip_check.h"
constexpr int tile_size = 32;
constexpr int num_per_block = 4;

template <typename T>
__inline__ __device__ T WarpReduce(T val) {
    for (int mask = 16; mask > 0; mask /= 2) val += __shfl_xor_sync(0xffffffff, val, mask);
    return val;
}

__global__ void GammaGradStep1(int rows, int cols, const float* dy, float* tmp_gamma_diff) {
    __shared__ float dgamma[32][33];
    float dgamma_sum[num_per_block] = {0, 0, 0, 0};
    const int col_id = blockIdx.x * blockDim.x + threadIdx.x;
    if (col_id < cols) {
        for (int i = blockIdx.y * tile_size + threadIdx.y; i < rows; i += tile_size * gridDim.y)
            for (int index = 0; index < num_per_block; ++index) {
                int row_id = i + index * blockDim.y;
                if (row_id < rows) dgamma_sum[index] += dy[row_id * cols + col_id];
            }
    }
    for (int index = 0; index < num_per_block; ++index)
        dgamma[index * blockDim.y + threadIdx.y][threadIdx.x] = dgamma_sum[index];
    __syncthreads();
    for (int index = 0; index < num_per_block; ++index) {
        const int col_id = blockIdx.x * blockDim.x + threadIdx.y + index * blockDim.y;
        if (col_id < cols) {
            float g = WarpReduce<float>(dgamma[threadIdx.x][threadIdx.y + index * blockDim.y]);
            if (threadIdx.x == 0) tmp_gamma_diff[blockIdx.y * cols + col_id] = g;
        }
    }
}

void GammaGrad(int rows, int cols, int grid_dim_y, const float* dy, float* part) {
    const int grid_dim_x = (cols + tile_size - 1) / tile_size;
    hipLaunchKernelGGL(GammaGradStep1, dim3(grid_dim_x, grid_dim_y), dim3(32, 32 / num_per_block), 0, 0, rows, cols, dy, part);
    HIP_CHECK(hipGetLastError());
}
