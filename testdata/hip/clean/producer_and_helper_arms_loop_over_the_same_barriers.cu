// A dequantising GEMM split into decoder threads and helper threads: both arms run the same
// k-loop, block-uniform in its trips, with two barriers per trip, so every barrier of one arm
// meets the same barrier of the other.
#include <cstdint>
#include "hip_check.h"

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
    HIP_CHECK(hipMalloc(&packed, (size_t)k_total * TILE_N));
    HIP_CHECK(hipMalloc(&a, (k_total + TILE_K) * sizeof(float)));
    HIP_CHECK(hipMalloc(&c, blocks * DECODERS * sizeof(float)));
    HIP_CHECK(hipMemset(packed, 9, (size_t)k_total * TILE_N));
    HIP_CHECK(hipMemset(a, 0, (k_total + TILE_K) * sizeof(float)));
    dequant_gemm<<<blocks, DECODERS + 128>>>(packed, a, c, k_total);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(packed));
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(c));
    return 0;
}
