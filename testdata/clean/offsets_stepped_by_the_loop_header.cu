// Clean: a transpose that walks time steps with a grid stride. The loop tests the time step
// `t`; the flat input and output offsets start at `t` times their strides and step with it at
// the end of the body, while the header steps `t`: each offset is always the one of the time
// step the loop just tested.
#include "cuda_check.h"

__global__ void transpose_heads(float* dst, const float* src, int head_stride_in, int time_stride_out,
                                int time_stride_in, int heads, int time_steps) {
    int step = blockDim.y;
    int t = blockIdx.z * step + threadIdx.y;
    int in = blockIdx.x * heads * time_steps * blockDim.x + threadIdx.x + t * time_stride_in;
    int out = blockIdx.x * heads * time_steps * blockDim.x + threadIdx.x + t * time_stride_out;
    step *= gridDim.z;
    for (; t < time_steps; t += step) {
        dst[out] = src[in];
        in += time_stride_in * step;
        out += time_stride_out * step;
    }
}

void transpose(float* dst, const float* src, int batch, int heads, int time_steps, int head_dim) {
    int rows_per_block = 1024 / head_dim;
    dim3 grid(batch, 1, (time_steps - 1) / (rows_per_block * 10) + 1);
    dim3 block(head_dim, rows_per_block);
    transpose_heads<<<grid, block>>>(dst, src, time_steps * head_dim, heads * head_dim, head_dim,
                                     heads, time_steps);
    CUDA_CHECK(cudaGetLastError());
}
