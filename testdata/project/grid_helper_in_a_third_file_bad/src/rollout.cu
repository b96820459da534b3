// The rollout kernel, one thread a sample, with no guard: main.cu launches it over 10,005
// samples in blocks of 10, which src/init.cu's helper rounds up, so the last block's five spare
// threads write past the costs.
#include "../include/init.cuh"

__global__ void rollout(float* costs) {
    const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
    costs[id] = 0.5f * id; // expect: unguarded-thread-index
}
