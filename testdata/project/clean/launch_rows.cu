// Clean (project): launches of the kernels in row_ops.cuh, one block per row and a block the
// width of a row, so every thread's index is inside the tensor.
#include <cstdio>
#include <cuda_runtime.h>
#include "row_ops.cuh"
#include "device_helpers.h"

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "%s\n", cudaGetErrorString(err_));                \
            return err_;                                                      \
        }                                                                     \
    } while (0)

// Guarded coordinates through a helper from device_helpers.h, and a helper that guards itself.
__global__ void scale_matrix(float* m, int rows, int cols, float s) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) m[flat(r, c, cols)] *= s;
    put_checked(m, r * cols + c, rows * cols, s);
}

cudaError_t launch_rows(const float* in, float* out, int rows, int cols, cudaStream_t stream) {
    softmax_rows<float><<<rows, cols, 0, stream>>>(in, out, cols);
    CUDA_CHECK(cudaGetLastError());
    copy_rows<<<rows, cols, 0, stream>>>(in, out);
    CUDA_CHECK(cudaGetLastError());
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    scale_matrix<<<grid, block, 0, stream>>>(out, rows, cols, 2.0f);
    CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}
