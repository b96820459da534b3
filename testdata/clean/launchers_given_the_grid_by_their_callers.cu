// Clean: a pulsar-search pipeline launches each kernel through a launcher that takes the grid
// and block as `const dim3 &`. The caller builds a grid of whole blocks only (`samps / 32`
// blocks of 32 threads, the remainder handled on the host), so no thread passes `samps`.
#include <cuda_runtime.h>

__global__ void stretch_kernel(int samps, const float *d_input, float *d_output, float scale)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    d_output[t] = d_input[t] * scale;
}

void call_kernel_stretch_kernel(const dim3 &num_blocks, const dim3 &threads_per_block, int samps,
                                const float *d_input, float *d_output, float scale)
{
    stretch_kernel<<<num_blocks, threads_per_block>>>(samps, d_input, d_output, scale);
}

void stretch_gpu(int samps, const float *d_input, float *d_output, float scale)
{
    int divisions_in_t = 32;
    int num_blocks_t = samps / divisions_in_t; // whole blocks only
    dim3 threads_per_block(divisions_in_t);
    dim3 num_blocks(num_blocks_t);
    call_kernel_stretch_kernel(num_blocks, threads_per_block, samps, d_input, d_output, scale);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return;
}
