// One warp per cone: each lane marks whether its part of the cone's scaling differs from 1 (lane 0
// also checks the head entry stored after the cone's `dim` entries), and
// a butterfly OR over all 32 lanes gives every lane the same answer, so the branch on it is taken
// by the whole warp or by none, and the full-mask reduction inside it sees all 32 lanes.
#include "hip_check.h"

__global__ void project_cones(double *x, const double *d, const int *start_idx, const int *dims,
                              int num_cones) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int cone = tid >> 5;
  const int lane = tid & 31;
  if (cone >= num_cones) return;
  const unsigned FULL = 0xffffffffu;
  const int start = start_idx[cone];
  const int dim = dims[cone];

  int differs = (lane == 0 && d[start + dim] != 1.0) ? 1 : 0;
  for (int m = lane; m < dim; m += 32)
    if (d[start + m] != 1.0) differs = 1;
  for (int offset = 16; offset > 0; offset >>= 1)
    differs |= __shfl_xor_sync(FULL, differs, offset);

  if (differs == 0) {
    double sum = 0.0;
    for (int m = lane; m < dim; m += 32) sum += x[start + m] * x[start + m];
    for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(FULL, sum, offset);
    const double norm = sqrt(sum);
    if (norm > 0.0)
      for (int m = lane; m < dim; m += 32) x[start + m] /= norm;
  }
}

void project(double *x, const double *d, const int *start_idx, const int *dims, int num_cones,
             hipStream_t stream) {
  const int threads = 256;
  const int blocks = (num_cones * 32 + threads - 1) / threads;
  hipLaunchKernelGGL(project_cones, blocks, threads, 0, stream, x, d, start_idx, dims, num_cones);
  HIP_CHECK(hipGetLastError());
}
