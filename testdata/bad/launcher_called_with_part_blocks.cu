// Bad: a launcher rounds its grid up from the sizes it is given, and the program calls it
// with a 1080 x 1920 image: 1080 rows are not a multiple of the 16-row block, so the last row of
// blocks hangs past the image, and its threads read and write past the end of the buffers.
#include <cuda_runtime.h>
#include "cuda_check.h"

#define BS 16

__global__ void brighten(float* out, const float* in, int rows, int cols) {
  const int x = blockDim.x * blockIdx.x + threadIdx.x;
  const int y = blockDim.y * blockIdx.y + threadIdx.y;
  out[y * cols + x] = 2.f * in[y * cols + x]; // expect: unguarded-thread-index
}

void brighten_gpu(float* out, const float* in, int rows, int cols) {
  dim3 block(BS, BS);
  dim3 grid((cols + BS - 1) / BS, (rows + BS - 1) / BS);
  brighten<<<grid, block>>>(out, in, rows, cols);
  CUDA_CHECK(cudaGetLastError());
}

int main() {
  const int rows = 1080;
  const int cols = 1920;
  const size_t bytes = rows * cols * sizeof(float);
  float *d_in, *d_out;
  CUDA_CHECK(cudaMalloc(&d_in, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMemset(d_in, 0, bytes));
  brighten_gpu(d_out, d_in, rows, cols);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  return 0;
}
