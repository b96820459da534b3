// A lattice step with overloads told apart only by empty tag types: the launch passes a tag
// value, the overloads have the arity that counts it, and the grid of nx / 64 blocks of 64
// threads is floored, so every update stays inside the nx * ny lattice.
#include "hip_check.h"

template <bool B> struct use_les {};

__global__ void step(int nx, int ny, float* f, use_les<false>) {
    int x = blockDim.x * blockIdx.x + threadIdx.x;
    int y = blockIdx.y;
    f[x + nx * y] *= 0.5f;
}

__global__ void step(int nx, int ny, float* f, use_les<true>) {
    int x = blockDim.x * blockIdx.x + threadIdx.x;
    int y = blockIdx.y;
    f[x + nx * y] *= 0.25f;
}

constexpr bool les = false;
constexpr int num_threads = 64;

void run(int nx, int ny, float* f) {
    dim3 grid(nx / num_threads, ny, 1);
    dim3 threads(num_threads, 1, 1);
    step<<<grid, threads>>>(nx, ny, f, use_les<les>());
    HIP_CHECK(hipGetLastError());
}

int main() {
    const int nx = 256, ny = 8;
    float* f;
    HIP_CHECK(hipMalloc(&f, nx * ny * sizeof(float)));
    HIP_CHECK(hipMemset(f, 0, nx * ny * sizeof(float)));
    run(nx, ny, f);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(f));
    return 0;
}
