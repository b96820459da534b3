// Bad: the launch config rounds the grid up to whole blocks over `n`, and the kernel has no
// test: the threads of the last block past `n` read and write out of bounds.
#include <cuda_runtime.h>

__global__ void scale(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i]; // expect: unguarded-thread-index
}

cudaError_t launch_scale(float* y, const float* x, int n, cudaStream_t stream)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + 255) / 256);
    config.blockDim = dim3(256);
    config.stream = stream;
    return cudaLaunchKernelEx(&config, scale, y, x, n);
}
