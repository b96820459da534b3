// The same colour map launched over an image whose sides need not be multiples of 16: the grid
// is rounded up, so the threads of the last blocks write channels past the `w * h * 4` bytes.
#include <cstdio>
#include "cuda_check.h"

__global__ void float_to_rgba(unsigned char* rgba, const float* field) {
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    int offset = x + y * blockDim.x * gridDim.x;
    rgba[offset * 4 + 3] = 255; // expect: unguarded-thread-index
}

void render(int w, int h) {
    unsigned char* d_rgba;
    float* d_field;
    CUDA_CHECK(cudaMalloc(&d_rgba, w * h * 4));
    CUDA_CHECK(cudaMalloc(&d_field, w * h * sizeof(float)));
    dim3 grid((w + 15) / 16, (h + 15) / 16), block(16, 16);
    float_to_rgba<<<grid, block>>>(d_rgba, d_field);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_rgba));
    CUDA_CHECK(cudaFree(d_field));
}
