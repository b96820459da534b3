// Bad: the same launcher, but the caller rounds the grid up to cover every sample. The kernel
// has no test against `samps`, so the threads of the last block past the last sample read and
// write past the buffers; the finding points at the caller's call of the launcher.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void stretch_kernel(int samps, const float *d_input, float *d_output, float scale)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    d_output[t] = d_input[t] * scale; // expect: unguarded-thread-index
}

void call_kernel_stretch_kernel(const dim3 &num_blocks, const dim3 &threads_per_block, int samps,
                                const float *d_input, float *d_output, float scale)
{
    hipLaunchKernelGGL(stretch_kernel, num_blocks, threads_per_block, 0, 0, samps, d_input, d_output, scale);
}

void stretch_gpu(int samps, const float *d_input, float *d_output, float scale)
{
    int divisions_in_t = 32;
    int num_blocks_t = (samps + divisions_in_t - 1) / divisions_in_t;
    dim3 threads_per_block(divisions_in_t);
    dim3 num_blocks(num_blocks_t);
    call_kernel_stretch_kernel(num_blocks, threads_per_block, samps, d_input, d_output, scale);
    HIP_CHECK(hipGetLastError());
}
