// Clean: the sizes are set together, `N = M = 2048;`, as a test program does. The grid covers
// them in whole 16 x 16 blocks (2048 is a multiple of 16), so no thread lies past the matrix.
#include <cuda_runtime.h>
#include "cuda_check.h"

#define BS 16

__global__ void twice(const float* A, float* C, int M, int N) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  C[row * N + col] = 2.f * A[row * N + col];
}

int main() {
  int M, N;
  N = M = 2048;
  float *d_A, *d_C;
  CUDA_CHECK(cudaMalloc((void**)&d_A, M * N * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void**)&d_C, M * N * sizeof(float)));
  CUDA_CHECK(cudaMemset(d_A, 0, M * N * sizeof(float)));
  dim3 block(BS, BS);
  dim3 grid((N + BS - 1) / BS, (M + BS - 1) / BS);
  twice<<<grid, block>>>(d_A, d_C, M, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaFree(d_A));
  CUDA_CHECK(cudaFree(d_C));
  return 0;
}
