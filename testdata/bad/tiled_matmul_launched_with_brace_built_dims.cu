// Bad: a tiled square matrix product in modern C++ style. The launcher rounds the side up to
// whole tiles and builds the grid and block with braces (`dim3{nb, nb}`), but nothing makes
// the side a multiple of the tile: for a side of 250 the edge blocks hold threads past the
// matrix, which skip the barriers the rest of their block waits at.
#include "cuda_check.h"

constexpr unsigned TILE = 16u;

__global__ void squareMatMulTiled(const float* a, const float* b, float* c, unsigned N)
{
    __shared__ float tileA[TILE][TILE];
    __shared__ float tileB[TILE][TILE];
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < N && col < N) {
        float sum = 0.0f;
        for (unsigned t = 0; t < N / TILE; ++t) {
            tileA[threadIdx.y][threadIdx.x] = a[row * N + t * TILE + threadIdx.x];
            tileB[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * N + col];
            __syncthreads();  // expect: divergent-barrier
            for (unsigned k = 0; k < TILE; ++k) sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];
            __syncthreads();  // expect: divergent-barrier
        }
        c[row * N + col] = sum;
    }
}

void launchSquareMatMul(const float* a, const float* b, float* c, unsigned N)
{
    unsigned nb = (N + TILE - 1u) / TILE;
    squareMatMulTiled<<<dim3{nb, nb}, dim3{TILE, TILE}>>>(a, b, c, N);
    CUDA_CHECK(cudaGetLastError());
}

int main()
{
    const unsigned N = 250;
    float *a, *b, *c;
    CUDA_CHECK(cudaMalloc(&a, N * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b, N * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&c, N * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(a, 0, N * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(b, 0, N * N * sizeof(float)));
    launchSquareMatMul(a, b, c, N);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    return 0;
}
