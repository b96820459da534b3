// Bad: a radar simulator in the style of FERS-derived GPU ports. The work is one thread per
// target, point and pulse; the function tests only the target count against `maxThreads`
// before launching one block of targets times points times pulses, so a scene with a few
// targets and many pulses asks for a block of more than 1024 threads and the launch fails.
#include "hip_check.h"

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
    if (targets <= maxThreads) {
        solveReturns<<<1, (targets * points * pulses)>>>(d_results, targets * points * pulses);  // expect: invalid-launch-config
    } else {
        int blocks = (targets * points * pulses + maxThreads - 1) / maxThreads;
        solveReturns<<<blocks < maxBlocks ? blocks : maxBlocks, maxThreads>>>(d_results, targets * points * pulses);
    }
    HIP_CHECK(hipGetLastError());
}
