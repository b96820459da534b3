// Bad: a tiled matrix product whose launcher takes the three sides and throws unless they are
// equal, then rounds the columns up to whole tiles. Nothing makes the side a multiple of the
// tile: for a side of 250 the edge blocks hold threads past the matrix, which skip the
// barriers the rest of their block waits at.
#include <stdexcept>
#include <cstdlib>
#include "hip_check.h"

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

void launchMatMul(const float* a, const float* b, float* c, unsigned rowsFirst,
                  unsigned colsFirst, unsigned colsSecond)
{
    if (rowsFirst != colsFirst || colsFirst != colsSecond)
        throw std::invalid_argument{"the matrices are not square"};
    auto const numBlocks = (colsSecond + TILE - 1u) / TILE;
    auto const gridSize = dim3{numBlocks, numBlocks};
    auto const blockSize = dim3{TILE, TILE};
    hipLaunchKernelGGL(squareMatMulTiled, gridSize, blockSize, 0, 0, a, b, c, colsSecond);
    HIP_CHECK(hipGetLastError());
}

int main(int argc, char** argv)
{
    const unsigned N = argc > 1 ? (unsigned)atoi(argv[1]) : 250u;
    unsigned rows = N, cols = N, colsSecond = N;
    float *a, *b, *c;
    HIP_CHECK(hipMalloc(&a, N * N * sizeof(float)));
    HIP_CHECK(hipMalloc(&b, N * N * sizeof(float)));
    HIP_CHECK(hipMalloc(&c, N * N * sizeof(float)));
    HIP_CHECK(hipMemset(a, 0, N * N * sizeof(float)));
    HIP_CHECK(hipMemset(b, 0, N * N * sizeof(float)));
    launchMatMul(a, b, c, rows, cols, colsSecond);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(c));
    return 0;
}
