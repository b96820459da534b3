// A bilateral filter with a shared-memory path chosen at compile time: each arm of the
// `if constexpr` leaves at `x >= width || y >= height` (the staged arm only after every thread
// has filled the tile and passed the barrier), so the store after the arms join is in bounds.
#include <cstdio>
#include "hip_check.h"

#define BLOCK_X 16
#define BLOCK_Y 8

template <bool staged>
__global__ void __launch_bounds__(BLOCK_X * BLOCK_Y)
bilateral(float* __restrict__ dst, const float* __restrict__ src, int width, int height,
          int stride) {
    const int x = threadIdx.x + blockIdx.x * BLOCK_X;
    const int y = threadIdx.y + blockIdx.y * BLOCK_Y;
    float center;
    if constexpr (staged) {
        __shared__ float tile[BLOCK_Y][BLOCK_X];
        tile[threadIdx.y][threadIdx.x] = src[min(y, height - 1) * stride + min(x, width - 1)];
        __syncthreads();
        if (x >= width || y >= height)
            return;
        center = tile[threadIdx.y][threadIdx.x];
    } else {
        if (x >= width || y >= height)
            return;
        center = src[y * stride + x];
    }
    dst[y * stride + x] = center;
}

void filter(float* d_dst, const float* d_src, int width, int height, int stride, bool staged,
            hipStream_t stream) {
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((width - 1) / BLOCK_X + 1, (height - 1) / BLOCK_Y + 1);
    if (staged)
        bilateral<true><<<grid, block, 0, stream>>>(d_dst, d_src, width, height, stride);
    else
        bilateral<false><<<grid, block, 0, stream>>>(d_dst, d_src, width, height, stride);
    HIP_CHECK(hipGetLastError());
}
