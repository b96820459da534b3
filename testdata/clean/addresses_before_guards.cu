// Clean: a tile kernel takes the address of its row in global memory before it knows whether
// the row exists, and reads and writes through that pointer only under the row and column
// tests. Forming an address past the end of a buffer touches no memory; the accesses through
// the pointer are judged with its offset.
#include "cuda_check.h"

constexpr int kTileDim = 32;

__global__ void scale_tiles(const float* input, float* output, size_t num_rows, size_t row_length,
                            float scale) {
    const size_t r_g = static_cast<size_t>(blockIdx.y) * kTileDim + threadIdx.y;
    const size_t c_g = static_cast<size_t>(blockIdx.x) * kTileDim + threadIdx.x;
    const float* input_g = &input[r_g * row_length + c_g];
    float* output_g = &output[r_g * row_length + c_g];
    if (r_g < num_rows && c_g < row_length) {
        output_g[0] = input_g[0] * scale;
    }
}

void scale_matrix(const float* d_in, float* d_out, size_t rows, size_t cols, float scale,
                  cudaStream_t stream) {
    dim3 block(kTileDim, kTileDim);
    dim3 grid((cols + kTileDim - 1) / kTileDim, (rows + kTileDim - 1) / kTileDim);
    scale_tiles<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols, scale);
    CUDA_CHECK(cudaGetLastError());
}
