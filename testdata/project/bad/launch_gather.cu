// Bad (project): launches of the kernels in gather.cuh.
#include <cstdio>
#include <cuda_runtime.h>
#include "gather.cuh"
#include "device_helpers.h"

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "%s\n", cudaGetErrorString(err_));                \
            return err_;                                                      \
        }                                                                     \
    } while (0)

// The write happens in `put` (device_helpers.h); the unguarded index comes from here.
__global__ void scatter(const float* src, float* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? src[i] : 0.0f;
    put(dst, i, v); // expect: unguarded-thread-index
}

// An index built by `flat` from two coordinates that nothing bounds.
__global__ void zero(float* m, int rows, int cols) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    m[flat(r, c, cols)] = 0.0f; // expect: unguarded-thread-index
}

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

cudaError_t launch_gather(const float* src, const int* idx, float* dst, int n, cudaStream_t stream) {
    gather<<<ceil_div(n, 256), 256, 0, stream>>>(src, idx, dst, n);
    CUDA_CHECK(cudaGetLastError());
    scatter<<<ceil_div(n, 256), 256, 0, stream>>>(src, dst, n);
    CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}

cudaError_t launch_zero(float* m, int rows, int cols, cudaStream_t stream) {
    dim3 block(16, 16);
    dim3 grid(ceil_div(cols, 16), ceil_div(rows, 16));
    zero<<<grid, block, 0, stream>>>(m, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}

cudaError_t launch_fill(float* out, int rows, cudaStream_t stream) {
    fill_rows<<<rows, 1, 0, stream>>>(out, rows, 0.0f);
    CUDA_CHECK(cudaGetLastError());
    fill_rows<<<(rows + 127) / 128, 128, 0, stream>>>(out, rows, 1.0f);
    CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}
