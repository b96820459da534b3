// A function-local static allocated on every call: each call overwrites the pointer the last one
// allocated, so every call but the last leaks its buffer.
#include <cstdio>
#include "hip_check.h"

__global__ void scale(float* values, int n, float factor) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) values[i] *= factor;
}

void scale_on_device(float* host, int n, float factor) {
    static float* values;
    HIP_CHECK(hipMalloc(&values, n * sizeof(float))); // expect: device-memory-leak
    HIP_CHECK(hipMemcpy(values, host, n * sizeof(float), hipMemcpyHostToDevice));
    scale<<<(n + 255) / 256, 256>>>(values, n, factor);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(host, values, n * sizeof(float), hipMemcpyDeviceToHost));
}
