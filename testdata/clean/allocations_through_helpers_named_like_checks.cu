// Clean: buffers allocated through helpers of a shared header whose names read like checks
// (`cudaMallocSafe`, `CUDA_SAFE_ALLOC`): the address handed to them is assigned there.
#include <cuda_runtime.h>
#include "util.h"

__global__ void fill(float* p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

int run(int n)
{
    float* d_in = nullptr;
    float* d_out;
    cudaMallocSafe(&d_in, n * sizeof(float));
    CUDA_SAFE_ALLOC(&d_out, n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(d_in, n);
    fill<<<(n + 255) / 256, 256>>>(d_out, n);
    if (cudaGetLastError() != cudaSuccess) return 1;
    cudaFreeSafe(d_in);
    cudaFreeSafe(d_out);
    return 0;
}
