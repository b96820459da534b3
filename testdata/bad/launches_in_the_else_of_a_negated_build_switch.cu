// Bad: the same library without the padding. The launch in the `#else` of `#ifndef
// FLIP_ENABLE_CUDA` rounds the grid up to cover every pixel, and the kernel has no test, so
// the threads of the last block past the last pixel read and write past the images.
#include <cuda_runtime.h>
#include "cuda_check.h"

#ifdef FLIP_ENABLE_CUDA
__global__ static void scale_pixels(float *dst, const float *src, float factor, int pixels)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dst[i] = src[i] * factor; // expect: unguarded-thread-index
}
#endif

struct image {
    float *data;
    int pixels;

#ifndef FLIP_ENABLE_CUDA
    static void scale(image &src, image &dst, float factor) { /* the CPU build */ }
#else
    static void scale(image &src, image &dst, float factor)
    {
        const int pixels = dst.pixels;
        scale_pixels<<<(pixels + 255) / 256, 256>>>(dst.data, src.data, factor, pixels);
        CUDA_CHECK(cudaGetLastError());
    }
#endif
};
