// A function-local static allocated on every call: each call overwrites the pointer the last one
// allocated, so every call but the last leaks its buffer.
#include <cstdio>
#include "cuda_check.h"

__global__ void scale(float* values, int n, float factor) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] *= factor;
}

void scale_on_device(float* host, int n, float factor) {
    static float* values;
    CUDA_CHECK(cudaMalloc(&values, n * sizeof(float))); // expect: device-memory-leak
    CUDA_CHECK(cudaMemcpy(values, host, n * sizeof(float), cudaMemcpyHostToDevice));
    scale<<<(n + 255) / 256, 256>>>(values, n, factor);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(host, values, n * sizeof(float), cudaMemcpyDeviceToHost));
}
