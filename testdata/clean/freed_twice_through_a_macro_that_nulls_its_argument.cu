// Clean: an image-processing pipeline in the style of demosaicing tools. Its free macro tests the
// pointer, frees it and sets it to NULL, so the cleanup at the end, which frees every buffer
// again whatever the error path freed already, frees nothing twice.
#include "cuda_check.h"

#define devFree(ptr)                       \
    do {                                   \
        if (ptr != NULL) CUDA_CHECK(cudaFree(ptr)); \
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
    CUDA_CHECK(cudaMalloc(&d_raw, pixels * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_green, pixels * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_raw, 0, pixels * sizeof(float)));
    interpolateGreen<<<(pixels + 255) / 256, 256>>>(d_raw, d_green, pixels);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    devFree(d_raw);
    devFree(d_green);
    devFree(d_raw);
    devFree(d_green);
    return 0;
}
