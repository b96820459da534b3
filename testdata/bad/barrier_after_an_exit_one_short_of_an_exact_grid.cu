// Bad: the grid covers the signal exactly (its length is a multiple of the block), but the
// forward difference leaves at `gid >= n - 1`, one short of the grid: the signal's last thread
// returns before the barrier the rest of its block waits at.
#include <cuda_runtime.h>
#include "cuda_check.h"

#define BLOCK 256

__global__ void forward_difference(const float* __restrict__ in, float* __restrict__ out, int n) {
    __shared__ float tile[BLOCK + 1];
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n - 1) return;
    tile[threadIdx.x] = in[gid];
    if (threadIdx.x == blockDim.x - 1) tile[blockDim.x] = in[gid + 1];
    __syncthreads(); // expect: divergent-barrier
    out[gid] = tile[threadIdx.x + 1] - tile[threadIdx.x];
}

int main() {
    const int n = 1 << 20;
    float *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(float) * n));
    CUDA_CHECK(cudaMemset(d_in, 0, sizeof(float) * n));
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof(float) * n));
    forward_difference<<<n / BLOCK, BLOCK>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}
