// Clean: `countBlocks` divides and counts one block more where the division leaves a remainder:
// a grid rounded up. The sample count is a whole number of blocks, so the rounded-up grid is
// exact and every thread's sample exists; the kernels index their buffers without a guard.
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define NUM_OF_SAMPLES 10000
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
        const float u = inputs[id + t * NUM_OF_SAMPLES];
        cost += u * u;
    }
    costs[id] = cost;
}

int main() {
    float* inputs = nullptr;
    float* costs = nullptr;
    HIP_CHECK(hipMalloc(&inputs, sizeof(float) * NUM_OF_SAMPLES * HORIZON));
    HIP_CHECK(hipMalloc(&costs, sizeof(float) * NUM_OF_SAMPLES));
    HIP_CHECK(hipMemset(inputs, 0, sizeof(float) * NUM_OF_SAMPLES * HORIZON));
    const unsigned int numBlocks = countBlocks(NUM_OF_SAMPLES, THREAD_PER_BLOCKS);
    hipLaunchKernelGGL(rollout_costs, numBlocks, THREAD_PER_BLOCKS, 0, 0, inputs, costs);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(costs));
    HIP_CHECK(hipFree(inputs));
    return 0;
}
