// Clean: a tiled matrix product whose launcher takes the three sides, throws unless they are
// equal and unless the rows are a multiple of the tile, then rounds the columns up to whole
// tiles. The columns equal the rows past the first throw, so the grid covers the matrix
// exactly: the kernel's bounds test holds in every thread, and every thread of a block
// reaches the barriers inside it.
#include <stdexcept>
#include <cstdlib>
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
            __syncthreads();
            for (unsigned k = 0; k < TILE; ++k) sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];
            __syncthreads();
        }
        c[row * N + col] = sum;
    }
}

void launchMatMul(const float* a, const float* b, float* c, unsigned rowsFirst,
                  unsigned colsFirst, unsigned colsSecond)
{
    if (rowsFirst != colsFirst || colsFirst != colsSecond)
        throw std::invalid_argument{"the matrices are not square"};
    if (rowsFirst % TILE != 0) throw std::invalid_argument{"the side is no multiple of the tile"};
    auto const numBlocks = (colsSecond + TILE - 1u) / TILE;
    auto const gridSize = dim3{numBlocks, numBlocks};
    auto const blockSize = dim3{TILE, TILE};
    squareMatMulTiled<<<gridSize, blockSize>>>(a, b, c, colsSecond);
    CUDA_CHECK(cudaGetLastError());
}

int main(int argc, char** argv)
{
    const unsigned N = argc > 1 ? (unsigned)atoi(argv[1]) : 256u;
    unsigned rows = N, cols = N, colsSecond = N;
    float *a, *b, *c;
    CUDA_CHECK(cudaMalloc(&a, N * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&b, N * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&c, N * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(a, 0, N * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(b, 0, N * N * sizeof(float)));
    launchMatMul(a, b, c, rows, cols, colsSecond);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    CUDA_CHECK(cudaFree(c));
    return 0;
}
