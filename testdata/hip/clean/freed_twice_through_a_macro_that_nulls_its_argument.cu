// Clean: an image-processing pipeline in the style of demosaicing tools. Its free macro tests the
// pointer, frees it and sets it to NULL, so the cleanup at the end, which frees every buffer
// again whatever the error path freed already, frees nothing twice.
#include "hip_check.h"

#define devFree(ptr)                       \
    do {                                   \
        if (ptr != NULL) HIP_CHECK(hipFree(ptr)); \
        ptr = NULL;                        \
    } while (0)

__global__ void interpolateGreen(const float* raw, float* green, int pixels) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pixels) green[i] = raw[i];
}

int main() {
    const int pixels = 1 << 16;
    float* d_raw = NULL;
    float* d_green = NULL;
    HIP_CHECK(hipMalloc(&d_raw, pixels * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_green, pixels * sizeof(float)));
    HIP_CHECK(hipMemset(d_raw, 0, pixels * sizeof(float)));
    hipLaunchKernelGGL(interpolateGreen, (pixels + 255) / 256, 256, 0, 0, d_raw, d_green, pixels);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    devFree(d_raw);
    devFree(d_green);
    devFree(d_raw);
    devFree(d_green);
    return 0;
}
