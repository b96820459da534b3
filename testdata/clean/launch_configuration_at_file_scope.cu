// A tiled matrix product whose launch configuration is kept in file-scope `dim3` globals that no
// function changes: the grid is the matrix in whole tiles, so no thread runs past it.
#include "cuda_check.h"

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
  CUDA_CHECK(cudaMalloc(&a, bytes));
  CUDA_CHECK(cudaMalloc(&b, bytes));
  CUDA_CHECK(cudaMalloc(&c, bytes));
  CUDA_CHECK(cudaMemset(a, 0, bytes));
  CUDA_CHECK(cudaMemset(b, 0, bytes));
  matmul<<<blocksPerGrid, threadsPerBlock>>>(a, b, c, M);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(c));
  return 0;
}
