// Semi-global matching's cost aggregation: one warp per image column, the column test around
// each call. The helper's only barrier sits in the branch that recomputes a shared tile, under
// `if (recompute)` and, inside it, in the arm for directions other than left-to-right; each call
// names its instantiation, so neither instantiation used here compiles that barrier.
#include <cstdint>
#include <cstdio>
#include "hip_check.h"

#define WARP_SIZE 32
#define DIR_UPDOWN 0
#define DIR_LEFTRIGHT 1

template <int dir_type, bool recompute>
__device__ __forceinline__ void aggregate_step(uint8_t* costs, const uint8_t* src, int index,
                                               int lane) {
    if (recompute) {
        if (dir_type == DIR_LEFTRIGHT) {
            costs[index] = src[index];
        } else {
            __shared__ uint8_t tile[128 + 32];
            tile[threadIdx.x] = src[index];
            __syncthreads();
            costs[index] = tile[(threadIdx.x + lane) % 128];
        }
    }
    costs[index] += 1;
}

template <int dir_type, bool recompute>
__device__ __forceinline__ void aggregate_column(uint8_t* costs, const uint8_t* src, int column,
                                                 int rows, int cols) {
    const int lane = threadIdx.x % WARP_SIZE;
    for (int row = 0; row < rows; ++row)
        aggregate_step<dir_type, recompute>(costs, src, row * cols + column, lane);
}

__global__ void aggregate_up_down(uint8_t* costs, const uint8_t* src, int rows, int cols) {
    const int column = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    if (column < cols) {
        const bool recompute = false;
        aggregate_column<DIR_UPDOWN, recompute>(costs, src, column, rows, cols);
    }
}

__global__ void aggregate_left_right(uint8_t* costs, const uint8_t* src, int rows, int cols) {
    const int column = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    if (column < cols) {
        aggregate_column<DIR_LEFTRIGHT, true>(costs, src, column, rows, cols);
    }
}

void aggregate(uint8_t* costs, const uint8_t* src, int rows, int cols, hipStream_t stream) {
    const int warps = 4;
    const int blocks = (cols + warps - 1) / warps;
    aggregate_up_down<<<blocks, warps * WARP_SIZE, 0, stream>>>(costs, src, rows, cols);
    HIP_CHECK(hipGetLastError());
    aggregate_left_right<<<blocks, warps * WARP_SIZE, 0, stream>>>(costs, src, rows, cols);
    HIP_CHECK(hipGetLastError());
}
