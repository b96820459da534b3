// A grid-stride kernel that also reads the element at its own global index before the loop:
// `x` is the problem's buffer of `n` elements, not a slot per thread, so the threads past `n`
// read beyond it. And a slot per thread in a buffer the launch sizes by the problem rather
// than by its rounded-up grid.
#include <cstdio>
#include "hip_check.h"

__global__ void sum_from_first(const float* x, int n, float* partial) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = x[t]; // expect: unguarded-thread-index
    for (int i = t + blockDim.x * gridDim.x; i < n; i += blockDim.x * gridDim.x) {
        sum += x[i];
    }
    partial[t] = sum;
}

__global__ void partial_sums(const float* x, int n, float* partial) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int i = t; i < n; i += blockDim.x * gridDim.x) {
        sum += x[i];
    }
    partial[t] = sum; // expect: unguarded-thread-index
}

void run(const float* d_x, int n) {
    float* d_partial;
    HIP_CHECK(hipMalloc(&d_partial, n * sizeof(float)));
    hipLaunchKernelGGL(partial_sums, (n + 255) / 256, 256, 0, 0, d_x, n, d_partial);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_partial));
}
