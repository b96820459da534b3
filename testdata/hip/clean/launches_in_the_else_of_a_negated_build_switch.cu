// Clean: an image library with a CPU and a CUDA build of one class. The kernel sits under
// `#ifdef FLIP_ENABLE_CUDA`, the CUDA launch in the `#else` of `#ifndef FLIP_ENABLE_CUDA`.
// Read as the CUDA build, the launch gives whole blocks of 256 pixels over an image the class
// pads to a multiple of 256, so the kernel needs no test of its own.
#include <hip/hip_runtime.h>

#ifdef FLIP_ENABLE_CUDA
__global__ static void scale_pixels(float *dst, const float *src, float factor, int pixels)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    dst[i] = src[i] * factor;
}
#endif

struct image {
    float *data;
    int padded_pixels; // a multiple of 256

#ifndef FLIP_ENABLE_CUDA
    static void scale(image &src, image &dst, float factor) { /* the CPU build */ }
#else
    static void scale(image &src, image &dst, float factor)
    {
        const int pixels = dst.padded_pixels;
        hipLaunchKernelGGL(scale_pixels, pixels / 256, 256, 0, 0, dst.data, src.data, factor, pixels);
        hipError_t err = hipGetLastError();
        if (err != hipSuccess) return;
    }
#endif
};
