// Clean: a tiled square matrix product in modern C++ style. The launcher throws unless the
// side is a multiple of the tile, then builds the grid and block with braces (`dim3{nb, nb}`).
// Past the throw the grid covers the matrix exactly, so the kernel's bounds test holds in
// every thread and every thread of a block reaches the barriers inside it.
#include <stdexcept>
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
            __syncthreads();
            for (unsigned k = 0; k < TILE; ++k) sum += tileA[threadIdx.y][k] * tileB[k][threadIdx.x];
            __syncthreads();
        }
        c[row * N + col] = sum;
    }
}

void launchSquareMatMul(const float* a, const float* b, float* c, unsigned N)
{
    if (N % TILE != 0) throw std::invalid_argument{"the side must be a multiple of the tile"};
    unsigned nb = (N + TILE - 1u) / TILE;
    squareMatMulTiled<<<dim3{nb, nb}, dim3{TILE, TILE}>>>(a, b, c, N);
    HIP_CHECK(hipGetLastError());
}

int main()
{
    const unsigned N = 256;
    float *a, *b, *c;
    HIP_CHECK(hipMalloc(&a, N * N * sizeof(float)));
    HIP_CHECK(hipMalloc(&b, N * N * sizeof(float)));
    HIP_CHECK(hipMalloc(&c, N * N * sizeof(float)));
    HIP_CHECK(hipMemset(a, 0, N * N * sizeof(float)));
    HIP_CHECK(hipMemset(b, 0, N * N * sizeof(float)));
    launchSquareMatMul(a, b, c, N);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(c));
    return 0;
}
