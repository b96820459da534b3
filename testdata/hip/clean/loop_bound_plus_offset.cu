// Clean: the element each thread touches is tested itself, or the loop bound leaves room for a
// whole block, or the base is a row guarded on its own and the offset a column of that row.
#include <hip/hip_runtime.h>

__global__ void copy_blocks(const float* in, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x) {
        const int j = i + threadIdx.x;
        if (j < n) {
            out[j] = in[j];
        }
    }
}

__global__ void copy_full_blocks(const float* in, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x; i + threadIdx.x < n; i += blockDim.x * gridDim.x) {
        out[i + threadIdx.x] = in[i + threadIdx.x];
    }
}

__global__ void row_bias(float* out, const float* bias, int rows, int cols) {
    int row = blockIdx.x;
    if (row < rows && threadIdx.x < cols) {
        out[row * cols + threadIdx.x] += bias[threadIdx.x];
    }
}
