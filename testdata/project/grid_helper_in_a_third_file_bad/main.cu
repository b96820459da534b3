// The launch: the grid is counted by a helper of src/init.cu, for a kernel of src/rollout.cu
// (10005 samples in blocks of 10).
#include <cuda_runtime.h>
#include "include/init.cuh"

#define NUM_OF_SAMPLES 10005
#define THREAD_PER_BLOCKS 10

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
