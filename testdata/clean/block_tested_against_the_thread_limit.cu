// Clean: a radar simulator in the style of FERS-derived GPU ports. The work is one thread per
// target, point and pulse; when it fits in one block the function launches one block of
// exactly that many threads, which it has just tested against `maxThreads`, the block size its
// other launches use. Neither launch can ask for a block larger than `maxThreads`.
#include "cuda_check.h"

struct Scene {
    int targetCount() const;
    int pointCount() const;
    int pulseCount() const;
};

__global__ void solveReturns(float* results, int work) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < work; i += blockDim.x * gridDim.x) results[i] = 0.5f * i;
}

void simulate(const Scene& scene, float* d_results, int maxThreads, int maxBlocks) {
    int targets = scene.targetCount();
    int points = scene.pointCount() + 1;
    int pulses = scene.pulseCount();
    if ((targets * points * pulses) <= maxThreads) {
        solveReturns<<<1, (targets * points * pulses)>>>(d_results, targets * points * pulses);
    } else {
        int blocks = (targets * points * pulses + maxThreads - 1) / maxThreads;
        solveReturns<<<blocks < maxBlocks ? blocks : maxBlocks, maxThreads>>>(d_results, targets * points * pulses);
    }
    CUDA_CHECK(cudaGetLastError());
}
