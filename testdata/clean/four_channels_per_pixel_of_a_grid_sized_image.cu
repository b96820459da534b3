// Colour-mapping kernels of a visualisation helper header: each thread is one pixel of an image
// exactly the size of the grid it is launched with (`x + y * blockDim.x * gridDim.x`), and writes
// that pixel's four bytes (`offset * 4 + 0..3`). The kernels take no size to test against: the
// grid is the image. The header launches nothing; its users launch one thread per pixel.
#include <cstdio>
#include "cuda_check.h"

__device__ unsigned char channel(float value) {
    return (unsigned char)(255.0f * fminf(fmaxf(value, 0.0f), 1.0f));
}

__global__ void float_to_rgba(unsigned char* rgba, const float* field) {
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    int offset = x + y * blockDim.x * gridDim.x;
    float v = field[offset];
    rgba[offset * 4 + 0] = channel(v);
    rgba[offset * 4 + 1] = channel(1.0f - v);
    rgba[offset * 4 + 2] = channel(0.5f * v);
    rgba[offset * 4 + 3] = 255;
}
