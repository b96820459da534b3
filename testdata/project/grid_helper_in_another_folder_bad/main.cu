// Bad: the grid is rounded up by a helper another folder's file defines, over 10,005 samples in
// blocks of 10: the last block's five spare threads write past the costs.
#include <cuda_runtime.h>
#include "include/init.cuh"

#define NUM_OF_SAMPLES 10005
#define THREAD_PER_BLOCKS 10

__global__ void rollout(float* costs) {
    const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
    costs[id] = 0.5f * id; // expect: unguarded-thread-index
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
