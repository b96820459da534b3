// Bad: a flag cleared when the column runs past the width, but never for the row, so rows past
// the height still write.
#include <hip/hip_runtime.h>

__global__ void copyRows(const float* input, float* output, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    bool inside = true;
    if (x >= width)
        inside = false;
    if (inside)
        output[y * width + x] = input[y * width + x]; // expect: unguarded-thread-index
}
