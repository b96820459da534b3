// A `thrust::device_ptr` view of a buffer does not own it: when the view goes out of scope the
// buffer stays allocated, and nothing else frees it, so every call leaks it.
#include <cstdio>
#include <thrust/device_ptr.h>
#include <thrust/fill.h>
#include "hip_check.h"

__global__ void scale(const float* weights, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] *= weights[i];
}

void apply_unit_weights(float* d_out, int n) {
    float* d_weights;
    HIP_CHECK(hipMalloc(&d_weights, n * sizeof(float))); // expect: device-memory-leak
    thrust::device_ptr<float> weights(d_weights);
    thrust::fill(weights, weights + n, 1.0f);
    scale<<<(n + 255) / 256, 256>>>(d_weights, d_out, n);
    HIP_CHECK(hipGetLastError());
}
