// Clean: image kernels whose 64-bit width is the step from one row to the next, walked by a
// pointer (a recursive column filter, a row-skipping copy): the width bounds one coordinate of
// a 2D image, and no image that fits in memory has 2^31 columns.
#include <cstddef>
#include <cuda_runtime.h>

// One column per thread: the pointers start at the column and advance a row at a time, down
// and then back up.
__global__ void columnSmooth(const float* in, float* out, const size_t width,
                             const size_t height, const float alpha) {
    size_t x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) return;

    in += x;
    out += x;

    float prev = *in;
    for (size_t y = 0; y < height; ++y) {
        prev = prev + alpha * (*in - prev);
        *out = prev;
        in += width;   // next row
        out += width;
    }

    in -= width;
    out -= width;
    prev = *in;
    for (size_t y = 0; y < height; ++y) {
        prev = prev + alpha * (*in - prev);
        *out = 0.5f * (*out + prev);
        in -= width;   // previous row
        out -= width;
    }
}

// Every other row, stepped as `p = p + 2 * width`.
__global__ void evenRows(const unsigned char* src, unsigned char* dst, size_t width,
                         size_t height) {
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < width) {
        const unsigned char* s = src + x;
        unsigned char* d = dst + x;
        for (size_t y = 0; y < height; y += 2) {
            *d = *s;
            s = s + 2 * width;
            d = d + 2 * width;
        }
    }
}
