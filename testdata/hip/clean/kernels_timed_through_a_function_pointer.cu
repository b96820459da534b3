// A benchmark harness that times each variant through a function pointer: the harness launches
// whatever kernel it is handed on its own grid of file constants, one tile per block, over
// buffers of exactly that many tiles.
#include "hip_check.h"

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
  hipEvent_t start, stop;
  HIP_CHECK(hipEventCreate(&start));
  HIP_CHECK(hipEventCreate(&stop));
  HIP_CHECK(hipEventRecord(start));
  kernel<<<grid, block>>>(in, out);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipEventRecord(stop));
  HIP_CHECK(hipEventSynchronize(stop));
  float ms = 0.0f;
  HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
  HIP_CHECK(hipEventDestroy(start));
  HIP_CHECK(hipEventDestroy(stop));
  return ms;
}

int main() {
  const size_t bytes = size_t(BLOCKS) * TILE * TILE * sizeof(float);
  float *in, *out;
  HIP_CHECK(hipMalloc(&in, bytes));
  HIP_CHECK(hipMalloc(&out, bytes));
  HIP_CHECK(hipMemset(in, 0, bytes));
  printf("naive %.3f ms\n", timeKernel(transposeNaive, in, out));
  printf("shared %.3f ms\n", timeKernel(transposeShared, in, out));
  HIP_CHECK(hipFree(in));
  HIP_CHECK(hipFree(out));
  return 0;
}
