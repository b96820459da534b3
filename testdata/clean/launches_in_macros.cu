// Clean: launches written in function-like macros, as transformer inference code writes its
// launchers. The macro's use picks the template arguments; each expansion launches an exact
// grid (one block per group of heads, one warp per head), so no thread runs past the data. A
// launch written as the statement of a type-dispatch macro (defined in a header) is read too.
#include <cuda_fp16.h>
#include "cuda_check.h"

template<int HEADS_PER_WARP, int WARPS_PER_BLOCK>
__global__ void scale_heads(half2* data, int size_per_head, float factor) {
    const int head = (blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32) * HEADS_PER_WARP;
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int h = 0; h < HEADS_PER_WARP; h++) {
        const int idx = (head + h) * size_per_head / 2 + lane;
        data[idx] = __hmul2(data[idx], __float2half2_rn(factor));
    }
}

#define SCALE_HEADS_LAUNCH(HEADS_PER_WARP, WARPS_PER_BLOCK)                                    \
    dim3 grid(heads / (HEADS_PER_WARP * WARPS_PER_BLOCK));                                      \
    dim3 block(32 * WARPS_PER_BLOCK);                                                           \
    scale_heads<HEADS_PER_WARP, WARPS_PER_BLOCK><<<grid, block, 0, stream>>>(                   \
        data, size_per_head, factor);

// size_per_head is 64: each warp covers one head of 32 half2 per head it handles.
void invoke_scale_heads(half2* data, int heads, int size_per_head, float factor,
                        cudaStream_t stream) {
    if (heads % 8 == 0) {
        SCALE_HEADS_LAUNCH(4, 2)
    } else if (heads % 2 == 0) {
        SCALE_HEADS_LAUNCH(1, 2)
    } else {
        SCALE_HEADS_LAUNCH(1, 1)
    }
    CUDA_CHECK(cudaGetLastError());
}

__global__ void add_bias_rows(float* out, const float* bias, int width) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    out[idx] += bias[threadIdx.x];
}

#define LAUNCH_ROWS(kernel, ...) kernel<<<rows, width, 0, stream>>>(__VA_ARGS__)

void invoke_add_bias_rows(float* out, const float* bias, int rows, int width,
                          cudaStream_t stream) {
    LAUNCH_ROWS(add_bias_rows, out, bias, width);
    CUDA_CHECK(cudaGetLastError());
}

template<typename T>
__global__ void scale_rows(T* data, const float* row_scale, int width) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    data[idx] = static_cast<T>(static_cast<float>(data[idx]) * row_scale[blockIdx.x]);
}

void invoke_scale_rows(void* data, const float* row_scale, int rows, int width, int dtype,
                       cudaStream_t stream) {
    TYPE_SWITCH_FLOAT(dtype, T,
        scale_rows<T><<<rows, width, 0, stream>>>(static_cast<T*>(data), row_scale, width);
    );
    CUDA_CHECK(cudaGetLastError());
}
