// A benchmark harness that times each variant through a function pointer: the harness launches
// whatever kernel it is handed on its own grid of file constants, one tile per block, over
// buffers of exactly that many tiles.
#include "cuda_check.h"

constexpr int TILE = 32, BLOCKS = 4096;

__global__ void transposeNaive(const float* in, float* out) {
  const int base = blockIdx.x * TILE * TILE;
  out[base + threadIdx.x * TILE + threadIdx.y] = in[base + threadIdx.y * TILE + threadIdx.x];
}

__global__ void transposeShared(const float* in, float* out) {
  __shared__ float tile[TILE][TILE + 1];
  const int base = blockIdx.x * TILE * TILE;
  tile[threadIdx.y][threadIdx.x] = in[base + threadIdx.y * TILE + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

static float timeKernel(void (*kernel)(const float*, float*), const float* in, float* out) {
  const dim3 block(TILE, TILE), grid(BLOCKS);
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start));
  kernel<<<grid, block>>>(in, out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
}

int main() {
  const size_t bytes = size_t(BLOCKS) * TILE * TILE * sizeof(float);
  float *in, *out;
  CUDA_CHECK(cudaMalloc(&in, bytes));
  CUDA_CHECK(cudaMalloc(&out, bytes));
  CUDA_CHECK(cudaMemset(in, 0, bytes));
  printf("naive %.3f ms\n", timeKernel(transposeNaive, in, out));
  printf("shared %.3f ms\n", timeKernel(transposeShared, in, out));
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
  return 0;
}
