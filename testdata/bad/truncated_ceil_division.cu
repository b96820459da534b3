// Bad: `ceil` of an integer quotient is the quotient rounded down, so grids and counts come out
// one short. The tiled GEMM's kernel has no bound test, and its truncated grid keeps every
// thread inside the matrix: the only finding there is the grid's.
#include "cuda_check.h"
#include <cmath>

#define MASK_BITS 8

template <const int BM, const int BN, const int TM>
__global__ void gemm_tiled(int m, int n, int k, const float* A, const float* B, float* C) {
    int col = blockIdx.y * BN + threadIdx.x % BN;
    int row = blockIdx.x * BM + threadIdx.x / BN * TM;
    for (int t = 0; t < TM; ++t) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) {
            sum += A[(row + t) * k + i] * B[i * n + col];
        }
        C[(row + t) * n + col] = sum;
    }
}

void gemm(int m, int n, int k, const float* A, const float* B, float* C) {
    const int BM = 64;
    const int BN = 64;
    const int TM = 8;
    dim3 grid_dim = dim3(ceil(n / BN), ceil(m / BM)); // expect: truncated-ceil-division, truncated-ceil-division
    dim3 block_dim = dim3(BM * BN / TM);
    gemm_tiled<BM, BN, TM><<<grid_dim, block_dim>>>(m, n, k, A, B, C);
    CUDA_CHECK(cudaGetLastError());
}

__global__ void count_valid(const unsigned char* masks, int* valid, int num_masks) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_masks) {
        atomicAdd(valid, __popc(masks[i]));
    }
}

void valid_rows(const unsigned char* masks, int* valid, size_t num_rows) {
    const int num_masks = std::ceil(num_rows / MASK_BITS); // expect: truncated-ceil-division
    count_valid<<<(num_masks + 127) / 128, 128>>>(masks, valid, num_masks);
    CUDA_CHECK(cudaGetLastError());
}
