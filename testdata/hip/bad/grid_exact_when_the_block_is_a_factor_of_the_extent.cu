// The same field update with a cell count that has the row length as no factor (a halo cell
// added to each row), and a constant count the block does not divide: the last block runs
// threads past `n`, and they skip the barrier the others wait at.
#include "hip_check.h"

#define MTPB 512

__global__ void update_e(float* ex, const float* hz, int n) {
  __shared__ float tile[1024];
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    tile[threadIdx.x] = hz[idx];
    __syncthreads();  // expect: divergent-barrier
    ex[idx] += tile[(threadIdx.x + 1) % blockDim.x];
  }
}

void step(float* ex, const float* hz, int nx, int ny, int nz_pitch) {
  const int tpb = nz_pitch;
  const int n = nx * ny * (nz_pitch + 1);
  const int bpg = n % tpb == 0 ? n / tpb : n / tpb + 1;
  update_e<<<bpg, tpb>>>(ex, hz, n);
  HIP_CHECK(hipGetLastError());
}

void planes(float* ex, const float* hz, int count) {
  const int planes = 3 * 100 * count;
  const int grid = planes % MTPB ? planes / MTPB + 1 : planes / MTPB;
  update_e<<<grid, MTPB>>>(ex, hz, planes);
  HIP_CHECK(hipGetLastError());
}
