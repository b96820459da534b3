#include "layers/include/row_ops.h"

namespace encoder {

template <>
__global__ void row_scale<float>(float* out, const float* in, const float* gamma, int n) {
  const int offset = blockIdx.x * n + threadIdx.x;
  out[offset] = in[offset] * gamma[threadIdx.x];
}

// The last block's threads past `total` write past the end of `out`.
template <>
__global__ void bias_add<float>(float* out, const float* bias, int n, int total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] += bias[i % n]; // expect: unguarded-thread-index
}

}  // namespace encoder
