// A dequantising GEMM split into decoder threads and helper threads: both arms run the same
// k-loop, block-uniform in its trips, with two barriers per trip, so every barrier of one arm
// meets the same barrier of the other.
#include <cstdint>
#include "cuda_check.h"

#define TILE_N 64
#define TILE_K 32
#define DECODERS (TILE_N * TILE_K / 4)

__global__ void dequant_gemm(const uint8_t* __restrict__ packed, const float* __restrict__ a,
                             float* __restrict__ c, int k_total) {
    __shared__ float b_tile[TILE_N * TILE_K];
    const int t = threadIdx.x;
    float acc = 0.f;
    if (t < DECODERS) {
        for (int kk = 0; kk < k_total; kk += TILE_K) {
            for (int q = 0; q < 4; ++q)
                b_tile[t * 4 + q] = (float)packed[(size_t)kk * TILE_N + t * 4 + q] - 8.f;
            __syncthreads();
            acc += b_tile[t] * a[kk + t % TILE_K];
            __syncthreads();
        }
        c[blockIdx.x * DECODERS + t] = acc;
    } else {
        for (int kk = 0; kk < k_total; kk += TILE_K) {
            __syncthreads();
            __syncthreads();
        }
    }
}

int main() {
    const int k_total = 256, blocks = 4;
    uint8_t* packed;
    float *a, *c;
    CUDA_CHECK(cudaMalloc(&packed, (size_t)k_total * TILE_N));
    CUDA_CHECK(cudaMalloc(&a, (k_total + TILE_K) * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&c, blocks * DECODERS * sizeof(float)));
    CUDA_CHECK(cudaMemset(packed, 9, (size_t)k_total * TILE_N));
    CUDA_CHECK(cudaMemset(a, 0, (k_total + TILE_K) * sizeof(float)));
    dequant_gemm<<<blocks, DECODERS + 128>>>(packed, a, c, k_total);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(packed));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(c));
    return 0;
}
