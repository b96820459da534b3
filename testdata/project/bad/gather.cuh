// Bad (project): a kernel in a header, launched from launch_gather.cu with a grid rounded up
// from `n`, and no guard: the threads of the last block past `n` read and write out of bounds.
#pragma once

__global__ void gather(const float* __restrict__ src, const int* __restrict__ idx, float* dst, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    dst[i] = src[idx[i]]; // expect: unguarded-thread-index
}

// Safe from the launch in launch_gather.cu (one block per row), unsafe from the one rounded up.
__global__ void fill_rows(float* out, int rows, float value) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    out[r] = value; // expect: unguarded-thread-index
}
