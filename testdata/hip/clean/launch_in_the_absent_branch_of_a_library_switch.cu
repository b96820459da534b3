// Clean: an optional library's switch. Its handles are declared under `#ifdef WITH_CUDNN` at the
// top; further down the hand-written kernel is launched under `#ifndef WITH_CUDNN` and the
// library call sits in the `#else`. The launch, in chunks of at most 1024 channels, keeps every
// thread inside the bias; it is the reading of the switch that holds the file's launches.
#include "hip_check.h"

#ifdef WITH_CUDNN
#include <cudnn.h>
static cudnnHandle_t handles[8];
#endif

__global__ void add_bias(float* out, const float* bias, int pixels, int channels, int offset) {
    int c = threadIdx.x + offset;
    float* plane = out + ((long)blockIdx.x * channels + c) * pixels;
    for (int p = 0; p < pixels; ++p) {
        plane[p] += bias[c];
    }
}

void conv_bias(float* out, const float* bias, int batch, int pixels, int channels) {
#ifndef WITH_CUDNN
    for (int first = 0; first < channels; first += 1024) {
        int count = min(1024, channels - first);
        hipLaunchKernelGGL(add_bias, batch, count, 0, 0, out, bias, pixels, channels, first);
        HIP_CHECK(hipGetLastError());
    }
#else
    cudnnAddTensor(handles[0], nullptr, nullptr, bias, nullptr, nullptr, out);
#endif
}
