// Predicate helpers that do not bound what the kernel indexes: a helper testing something else
// than the index, an access after the guarded branch, and a helper whose failure says nothing
// of the index (`!(a && b)` may fail on either).
#include "hip_check.h"

#define FLUID 1
#define THREADS 128

struct Particle {
  float x, v;
  int flags;
};

__device__ bool has_flag(int flags, int mask) { return (flags & mask) != 0 && flags < mask * 4; }

__device__ bool active(int index, int count, int lock) { return index < count && lock > 0; }

__global__ void integrate(Particle* particles, int n, float dt, int lock) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (active(i, n, lock)) {
    particles[i].x += dt * particles[i].v;
  }
  particles[i].v *= 0.5f;  // expect: unguarded-thread-index
}

__global__ void tag(Particle* particles, int n, int mask) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (has_flag(mask, n)) {
    particles[i].flags |= mask;  // expect: unguarded-thread-index
  }
}

__global__ void settle(Particle* particles, int n, int lock) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (active(i, n, lock)) return;
  particles[i].v = 0.0f;  // expect: unguarded-thread-index
}

int main() {
  const int n = 1000;
  Particle* particles = nullptr;
  HIP_CHECK(hipMalloc(&particles, n * sizeof(Particle)));
  HIP_CHECK(hipMemset(particles, 0, n * sizeof(Particle)));
  const dim3 grid((n + THREADS - 1) / THREADS);
  integrate<<<grid, THREADS>>>(particles, n, 0.01f, 1);
  HIP_CHECK(hipGetLastError());
  tag<<<grid, THREADS>>>(particles, n, FLUID);
  HIP_CHECK(hipGetLastError());
  settle<<<grid, THREADS>>>(particles, n, 1);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipFree(particles));
  return 0;
}
