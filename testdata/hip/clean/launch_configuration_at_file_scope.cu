// A tiled matrix product whose launch configuration is kept in file-scope `dim3` globals that no
// function changes: the grid is the matrix in whole tiles, so no thread runs past it.
#include "hip_check.h"

const int M = 1024;
const int TILE = 32;
dim3 blocksPerGrid(M / TILE, M / TILE);
dim3 threadsPerBlock(TILE, TILE);

__global__ void matmul(const double* a, const double* b, double* c, int n) {
  __shared__ double as[TILE][TILE], bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  double sum = 0.0;
  for (int t = 0; t < n / TILE; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
    bs[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += as[threadIdx.y][k] * bs[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

int main() {
  double *a, *b, *c;
  const size_t bytes = M * M * sizeof(double);
  HIP_CHECK(hipMalloc(&a, bytes));
  HIP_CHECK(hipMalloc(&b, bytes));
  HIP_CHECK(hipMalloc(&c, bytes));
  HIP_CHECK(hipMemset(a, 0, bytes));
  HIP_CHECK(hipMemset(b, 0, bytes));
  hipLaunchKernelGGL(matmul, blocksPerGrid, threadsPerBlock, 0, 0, a, b, c, M);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  HIP_CHECK(hipFree(c));
  return 0;
}
