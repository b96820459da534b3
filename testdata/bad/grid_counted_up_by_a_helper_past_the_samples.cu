// Bad: `countBlocks` divides and counts one block more where the division leaves a remainder:
// a grid rounded up. 10,005 samples in blocks of 10 leave five threads of the last block with
// no sample, and the kernel, which has no guard, reads and writes past both buffers.
#include <cuda_runtime.h>
#include "cuda_check.h"

#define NUM_OF_SAMPLES 10005
#define THREAD_PER_BLOCKS 10
#define HORIZON 8

unsigned int countBlocks(unsigned int a, unsigned int b) {
    unsigned int num;
    num = a / b;
    if (a < b || a % b > 0)
        num++;
    return num;
}

__global__ void rollout_costs(const float* __restrict__ inputs, float* __restrict__ costs) {
    const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
    float cost = 0.f;
    for (int t = 0; t < HORIZON; ++t) {
        const float u = inputs[id + t * NUM_OF_SAMPLES]; // expect: unguarded-thread-index
        cost += u * u;
    }
    costs[id] = cost;
}

int main() {
    float* inputs = nullptr;
    float* costs = nullptr;
    CUDA_CHECK(cudaMalloc(&inputs, sizeof(float) * NUM_OF_SAMPLES * HORIZON));
    CUDA_CHECK(cudaMalloc(&costs, sizeof(float) * NUM_OF_SAMPLES));
    CUDA_CHECK(cudaMemset(inputs, 0, sizeof(float) * NUM_OF_SAMPLES * HORIZON));
    const unsigned int numBlocks = countBlocks(NUM_OF_SAMPLES, THREAD_PER_BLOCKS);
    rollout_costs<<<numBlocks, THREAD_PER_BLOCKS>>>(inputs, costs);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(costs));
    CUDA_CHECK(cudaFree(inputs));
    return 0;
}
