// Clean: a launcher given its block shape stops unless the block's width divides the number of
// rollouts, then rounds the grid up: with the check, the rounding adds no thread, and every
// thread's rollout is one of the `num_rollouts` the buffer holds.
#include <cstdlib>
#include <iostream>
#include <cuda_runtime.h>

__host__ __device__ inline int int_ceil(int a, int b) { return (a + b - 1) / b; }

template <int OUTPUT_DIM>
__global__ void rollout_kernel(const int num_timesteps, const int num_rollouts,
                               const float *__restrict__ init_x_d, float *__restrict__ y_d)
{
    const int global_idx = blockDim.x * blockIdx.x + threadIdx.x;
    for (int t = 0; t < num_timesteps; t++) {
        int sample_time_offset = global_idx * num_timesteps + t;
        for (int i = threadIdx.y; i < OUTPUT_DIM; i += blockDim.y)
            y_d[sample_time_offset * OUTPUT_DIM + i] = init_x_d[i] * t;
    }
}

template <int OUTPUT_DIM>
int launch_rollouts(const int num_timesteps, const int num_rollouts, float *init_x_d, float *y_d,
                    dim3 dimBlock, cudaStream_t stream)
{
    if (num_rollouts % dimBlock.x != 0) {
        std::cerr << "num_rollouts must be a multiple of the block's width" << std::endl;
        exit(EXIT_FAILURE);
    }
    const int gridsize_x = int_ceil(num_rollouts, dimBlock.x);
    dim3 dimGrid(gridsize_x, 1, 1);
    rollout_kernel<OUTPUT_DIM><<<dimGrid, dimBlock, 0, stream>>>(num_timesteps, num_rollouts, init_x_d, y_d);
    return cudaGetLastError() != cudaSuccess;
}

int run(int num_rollouts, float *x_d, float *y_d)
{
    return launch_rollouts<4>(100, num_rollouts, x_d, y_d, dim3(64, 4, 1), 0);
}
