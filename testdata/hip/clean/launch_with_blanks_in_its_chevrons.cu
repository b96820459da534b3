// Clean: a book example writes its launch with blanks inside the chevrons, `k << < grid, block
// >> > (...)`, which nvcc accepts. The grid is the matrix size divided by the block (rounded
// down), so no thread lies past the matrix and the kernel needs no guard.
#include <hip/hip_runtime.h>

#define BLOCK_DIM 16

__global__ void scale(const float* A, float* C, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  C[row * cols + col] = 2.f * A[row * cols + col];
}

hipError_t run(const float* A, float* C, int rows, int cols) {
  dim3 block(BLOCK_DIM, BLOCK_DIM);
  dim3 grid(cols / block.x, rows / block.y);
  scale << < grid, block >> > (A, C, rows, cols);
  return hipGetLastError();
}
