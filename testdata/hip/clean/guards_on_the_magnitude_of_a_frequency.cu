// Clean: Fourier-space kernels index signed frequencies and guard them through their magnitude.
// The first branch takes every pixel with |x| >= inx / 2 or |y| > iny / 2, so the later
// branches see x < inx / 2 and y <= iny / 2: `fabsf(x) < B` bounds x from above as `x < B` does.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void slice_power(const float* const slice, float* power, const int inx, const int iny)
{
    const int x = threadIdx.x;
    const int y = blockIdx.x - iny / 2;
    float re = 0.0f, im = 0.0f;
    if (fabsf(x) >= inx / 2 || fabsf(y) > iny / 2) {
        return;
    } else if (x >= 0 && y >= 0) {
        re = slice[x * 2 + y * inx];
        im = slice[x * 2 + y * inx + 1];
    } else if (x > 0 && y < 0) {
        re = slice[x * 2 + (iny + y) * inx];
        im = slice[x * 2 + (iny + y) * inx + 1];
    }
    power[(y + iny / 2) * (inx / 2) + x] = re * re + im * im;
}
