// Bad: the launch is written with blanks inside the chevrons, `k << < grid, block, bytes >> >
// (...)`, which nvcc accepts. Each thread stages two elements in dynamic shared memory, but the
// launch gives one float per thread: the second store lands past the buffer.
#include <hip/hip_runtime.h>

__global__ void stage_pairs(const float* in, float* out, int n) {
  extern __shared__ float staged[];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * 2 * blockDim.x;
  staged[tid] = base + tid < n ? in[base + tid] : 0.f;
  staged[tid + blockDim.x] = // expect: out-of-range-access
      base + tid + blockDim.x < n ? in[base + tid + blockDim.x] : 0.f;
  __syncthreads();
  if (base + tid < n) out[base + tid] = staged[tid] + staged[tid + blockDim.x]; // expect: out-of-range-access
}

hipError_t run(const float* in, float* out, int n) {
  const int threads = 256;
  const int blocks = (n + 2 * threads - 1) / (2 * threads);
  stage_pairs << < blocks, threads, threads * sizeof(float) >> > (in, out, n);
  return hipGetLastError();
}
