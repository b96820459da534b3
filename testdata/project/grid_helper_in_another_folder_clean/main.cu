// Clean: the grid is rounded up by a helper another folder's file defines, over a sample count
// that is a whole number of blocks, so the grid is exact and the kernel needs no guard.
#include <cuda_runtime.h>
#include "include/init.cuh"

#define NUM_OF_SAMPLES 10000
#define THREAD_PER_BLOCKS 10

__global__ void rollout(float* costs) {
    const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
    costs[id] = 0.5f * id;
}

int main() {
    float* costs = nullptr;
    if (cudaMalloc(&costs, sizeof(float) * NUM_OF_SAMPLES) != cudaSuccess) return 1;
    const unsigned int numBlocks = countBlocks(NUM_OF_SAMPLES, THREAD_PER_BLOCKS);
    rollout<<<numBlocks, THREAD_PER_BLOCKS>>>(costs);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    if (cudaFree(costs) != cudaSuccess) return 1;
    return 0;
}
