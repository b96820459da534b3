// Launches one macro deep and in a macro defined in the launcher's body, each with a grid
// rounded up past the data: the kernels' unguarded accesses run in the last block's extra
// threads. Neither kernel is launched anywhere else.
#include "hip_check.h"

__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= factor; // expect: unguarded-thread-index
}

__global__ void shift(float *data, float offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] += offset; // expect: unguarded-thread-index
}

#define LAUNCH_SCALE_INNER(blocks, threads, stream, p, f, n) \
  scale<<<blocks, threads, 0, stream>>>(p, f, n)

#define LAUNCH_SCALE(threads, stream, p, f, n) \
  LAUNCH_SCALE_INNER(((n) + (threads) - 1) / (threads), threads, stream, p, f, n)

void scale_all(float *data, float factor, int n, hipStream_t stream) {
  LAUNCH_SCALE(256, stream, data, factor, n);
  HIP_CHECK(hipGetLastError());
}

void shift_all(float *data, float offset, int n, hipStream_t stream) {
#define LAUNCH_SHIFT(threads) \
  shift<<<(n + (threads) - 1) / (threads), threads, 0, stream>>>(data, offset, n)
  LAUNCH_SHIFT(128);
#undef LAUNCH_SHIFT
  HIP_CHECK(hipGetLastError());
}
