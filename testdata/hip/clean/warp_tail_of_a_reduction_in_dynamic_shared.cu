// Clean: a sum of squares in one block, one double of dynamic shared memory per thread. The
// warp tail adds `sdata[tx + 32]` under `tx < 32`, so it reads no higher than element 63, and
// every launch picks a block of at least 64 threads: the read stays inside the block's bytes.
// (`blockDim.x + 31` also bounds the index, but the test against 32 is the tighter one.)
#include "hip_check.h"

__global__ void sum_of_squares(int n, const double* __restrict__ x, double* __restrict__ out) {
  extern __shared__ double sdata[];
  const int tx = threadIdx.x;
  sdata[tx] = (tx < n) ? x[tx] * x[tx] : 0.0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tx < s) sdata[tx] += sdata[tx + s];
    __syncthreads();
  }
  if (tx < 32) {
    volatile double* v = sdata;
    v[tx] += v[tx + 32];
  }
  if (tx == 0) *out = sdata[0];
}

void run(int n, const double* x, double* out) {
  int threads;
  if (n > 128) threads = 256;
  else if (n > 64) threads = 128;
  else threads = 64;
  sum_of_squares<<<1, threads, threads * sizeof(double)>>>(n, x, out);
  HIP_CHECK(hipGetLastError());
}
