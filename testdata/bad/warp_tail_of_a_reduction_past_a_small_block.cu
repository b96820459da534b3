// Bad: the same warp tail, but one launch gives a block of 32 threads and shared memory for
// 32 doubles: `sdata[tx + 32]` reads elements 32 to 63, past the block's 256 bytes.
#include <cuda_runtime.h>

__global__ void sum_of_squares(int n, const double* __restrict__ x, double* __restrict__ out) {
  extern __shared__ double sdata[];
  const int tx = threadIdx.x;
  sdata[tx] = (tx < n) ? x[tx] * x[tx] : 0.0;
  __syncthreads();
  if (tx < 32) {
    volatile double* v = sdata;
    v[tx] += v[tx + 32]; // expect: out-of-range-access
  }
  if (tx == 0) *out = sdata[0];
}

cudaError_t run(int n, const double* x, double* out) {
  sum_of_squares<<<1, 32, 32 * sizeof(double)>>>(n, x, out);
  return cudaGetLastError();
}
