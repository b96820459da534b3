// Bad: the trip count is taken from the corner after each thread has added its own offset to it:
// the helper then gives the threads of one block different counts, so the early exit and the
// loop counting down from it split the block, and some threads skip the barriers the others
// wait at.
#include <cuda_runtime.h>
#include "cuda_check.h"

#define TILE 32

__device__ __forceinline__ int tile_iterations(int x, int y, int rows, int cols) {
    x = cols - x;
    if (x <= 0) return 0;
    y -= rows - 1;
    if (0 < y) x -= y;
    if (x <= 0) return 0;
    return x < TILE ? x : TILE;
}

// One anti-diagonal of tiles per launch: block b holds the tile at column 2b of the diagonal.
__global__ void diagonal_pass(const float* __restrict__ scores, float* __restrict__ front,
                              unsigned diagonal, int rows, int cols) {
    __shared__ float carried[TILE + 1];
    int x = 2 * blockIdx.x * TILE;
    int y = (diagonal + 1 - blockIdx.x) * TILE - 1;
    x += threadIdx.x;
    const unsigned steps = tile_iterations(x, y, rows, cols);
    if (y < 0 || rows <= y + 1 - TILE || cols <= x || steps < 1)
        return;  // the whole tile lies outside the matrix
    carried[threadIdx.x + 1] = (x < cols) ? front[x] : 0.f;
    if (threadIdx.x == 0) carried[0] = 0.f;
    __syncthreads(); // expect: divergent-barrier
    for (int i = steps - 1; i >= 0; i--) {
        const int row = y - i;
        float best = carried[threadIdx.x];
        if (row >= 0 && row < rows && x < cols) best += scores[row * cols + x];
        __syncthreads();
        carried[threadIdx.x + 1] = best;
        __syncthreads();
    }
    if (x < cols) front[x] = carried[threadIdx.x + 1];
}

int main() {
    const int rows = 96, cols = 20;
    float* scores = nullptr;
    float* front = nullptr;
    CUDA_CHECK(cudaMalloc(&scores, sizeof(float) * rows * cols));
    CUDA_CHECK(cudaMalloc(&front, sizeof(float) * cols));
    CUDA_CHECK(cudaMemset(scores, 0, sizeof(float) * rows * cols));
    CUDA_CHECK(cudaMemset(front, 0, sizeof(float) * cols));
    const unsigned diagonals = (rows + cols) / TILE;
    for (unsigned d = 0; d < diagonals; ++d) {
        diagonal_pass<<<(cols + 2 * TILE - 1) / (2 * TILE), TILE>>>(scores, front, d, rows, cols);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(front));
    CUDA_CHECK(cudaFree(scores));
    return 0;
}
