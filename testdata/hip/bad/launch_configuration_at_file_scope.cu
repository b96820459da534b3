// The same product with its file-scope grid rounded up over a matrix the tile does not divide:
// the last row and column of blocks run threads past the matrix.
#include "hip_check.h"

const int M = 1000;
const int TILE = 32;
dim3 blocksPerGrid((M + TILE - 1) / TILE, (M + TILE - 1) / TILE);
dim3 threadsPerBlock(TILE, TILE);

__global__ void matmul(const double* a, const double* b, double* c, int n) {
  __shared__ double as[TILE][TILE], bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  double sum = 0.0;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    as[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];  // expect: unguarded-thread-index
    bs[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];  // expect: unguarded-thread-index
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
  matmul<<<blocksPerGrid, threadsPerBlock>>>(a, b, c, M);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipFree(a));
  HIP_CHECK(hipFree(b));
  HIP_CHECK(hipFree(c));
  return 0;
}
