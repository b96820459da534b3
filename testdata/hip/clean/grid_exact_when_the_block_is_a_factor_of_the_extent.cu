// A field update whose block is one pitched row: the cell count is a product with the row
// length as a factor, so the remainder test always picks the floor division and every thread
// of every block passes `idx < n`. The same with a constant block that a constant factor of the
// count is a multiple of.
#include "hip_check.h"

#define MTPB 512

__global__ void update_e(float* ex, const float* hz, int n) {
  __shared__ float tile[1024];
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    tile[threadIdx.x] = hz[idx];
    __syncthreads();
    ex[idx] += tile[(threadIdx.x + 1) % blockDim.x];
  }
}

__global__ void update_h(int nx, int ny, int nzp, float* hx, const float* ez) {
  __shared__ float tile[1024];
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < nx * ny * nzp) {
    tile[threadIdx.x] = ez[idx];
    __syncthreads();
    hx[idx] -= tile[(threadIdx.x + 1) % blockDim.x];
  }
}

__global__ void clusters(const double* in, double* out, int number) {
  __shared__ double part[96];
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= number) return;
  part[threadIdx.x] = in[idx];
  __syncthreads();
  out[idx] = part[(threadIdx.x + 32) % 96];
}

void step(float* ex, const float* hz, int nx, int ny, int nz_pitch) {
  const int tpb = nz_pitch;
  const int n = nx * ny * nz_pitch;
  const int bpg = n % tpb == 0 ? n / tpb : n / tpb + 1;
  update_e<<<bpg, tpb>>>(ex, hz, n);
  HIP_CHECK(hipGetLastError());
  const dim3 grid(bpg), block(tpb);
  update_h<<<grid, block>>>(nx, ny, nz_pitch, ex, hz);
  HIP_CHECK(hipGetLastError());
}

void gather(const double* in, double* out, int count) {
  const int block = 32 * 3;
  const int number = (count / 32) * 32 * 3;
  const int blocks = (number + block - 1) / block;
  clusters<<<blocks, block>>>(in, out, number);
  HIP_CHECK(hipGetLastError());
  const int planes = 4 * MTPB * count;
  const int grid = planes % MTPB ? planes / MTPB + 1 : planes / MTPB;
  update_e<<<grid, MTPB>>>(reinterpret_cast<float*>(out), reinterpret_cast<const float*>(in), planes);
  HIP_CHECK(hipGetLastError());
}
