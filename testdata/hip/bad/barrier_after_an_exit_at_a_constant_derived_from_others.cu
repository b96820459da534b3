// The same kernel launched with blocks wider than the derived head dimension: the threads past
// it leave before the barrier the others wait at.
#include "hip_check.h"

constexpr int EMB = 256;
constexpr int HEADS = 8;
constexpr int HDIM = EMB / HEADS;

__global__ void attend(const float* q, const float* k, float* o, int tokens) {
  const int t = blockIdx.x;
  const int h = blockIdx.y;
  const int d = threadIdx.x;
  if (d >= HDIM) return;
  extern __shared__ float prob[];
  if (d == 0) {
    for (int j = 0; j < tokens; ++j) prob[j] = q[t * EMB + h * HDIM] * k[j * EMB + h * HDIM];
  }
  __syncthreads();  // expect: divergent-barrier
  float acc = 0.0f;
  for (int j = 0; j < tokens; ++j) acc += prob[j] * k[j * EMB + h * HDIM + d];
  o[t * EMB + h * HDIM + d] = acc;
}

void run(const float* q, const float* k, float* o, int tokens) {
  attend<<<dim3(tokens, HEADS), 64, tokens * sizeof(float)>>>(q, k, o, tokens);
  HIP_CHECK(hipGetLastError());
}
