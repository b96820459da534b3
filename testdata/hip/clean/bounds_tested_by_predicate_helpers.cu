// Particle kernels that keep their bounds test in a one-line predicate helper: `active(i, n,
// ...)` returns `i < n && ...`, `outside(i, n)` returns `i >= n`. A call of the helper in a
// condition is the test it returns, in the kernel's own names.
#include "hip_check.h"

#define FLUID 1
#define THREADS 128

struct Particle {
  float x, v;
  int flags;
};

__device__ bool active(int index, int count, const Particle* particles, int mask) {
  return index < count && (particles[index].flags & mask);
}

__device__ bool outside(int index, int count) { return index >= count; }

__device__ __forceinline__ bool in_grid(int x, int y, int width, int height) {
  return x < width && y < height;
}

__global__ void integrate(Particle* particles, int n, float dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (active(i, n, particles, FLUID)) {
    particles[i].x += dt * particles[i].v;
  }
}

__global__ void damp(Particle* particles, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (outside(i, n)) return;
  particles[i].v *= factor;
}

__global__ void clear_cells(int* cells, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (!in_grid(x, y, width, height)) return;
  cells[y * width + x] = -1;
}

int main() {
  const int n = 1000, width = 100, height = 60;
  Particle* particles = nullptr;
  int* cells = nullptr;
  HIP_CHECK(hipMalloc(&particles, n * sizeof(Particle)));
  HIP_CHECK(hipMalloc(&cells, width * height * sizeof(int)));
  HIP_CHECK(hipMemset(particles, 0, n * sizeof(Particle)));
  const dim3 grid((n + THREADS - 1) / THREADS);
  hipLaunchKernelGGL(integrate, grid, THREADS, 0, 0, particles, n, 0.01f);
  HIP_CHECK(hipGetLastError());
  hipLaunchKernelGGL(damp, grid, THREADS, 0, 0, particles, n, 0.99f);
  HIP_CHECK(hipGetLastError());
  const dim3 block2d(16, 16);
  const dim3 grid2d((width + 15) / 16, (height + 15) / 16);
  hipLaunchKernelGGL(clear_cells, grid2d, block2d, 0, 0, cells, width, height);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipFree(particles));
  HIP_CHECK(hipFree(cells));
  return 0;
}
