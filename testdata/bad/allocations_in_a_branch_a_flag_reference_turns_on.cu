// Bad: the roadmap's neighbour search starts from a local flag set to `false`, but the option
// parser writes the flag through a reference, so the GPU path runs, and its two buffers are
// never freed.
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void nearest(const float* __restrict__ xyz, int* __restrict__ best, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) best[i] = xyz[i] > 0.f ? i : -1;
}

static int nearest_on_cpu(const float* xyz, int n) {
    int found = 0;
    for (int i = 0; i < n; ++i) found += xyz[i] > 0.f;
    return found;
}

static bool parse_device_option(int argc) { return argc > 1; }

int main(int argc, char**) {
    const int n = 4096;
    static float xyz[n];
    bool parallel = false;
    bool& use_gpu = parallel;
    use_gpu = parse_device_option(argc);
    if (!parallel) {
        return nearest_on_cpu(xyz, n) > n ? 1 : 0;
    } else {
        float* d_xyz = nullptr;
        int* d_best = nullptr;
        CUDA_CHECK(cudaMalloc(&d_xyz, sizeof(float) * n)); // expect: device-memory-leak
        CUDA_CHECK(cudaMalloc(&d_best, sizeof(int) * n)); // expect: device-memory-leak
        CUDA_CHECK(cudaMemcpy(d_xyz, xyz, sizeof(float) * n, cudaMemcpyHostToDevice));
        nearest<<<(n + 255) / 256, 256>>>(d_xyz, d_best, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    return 0;
}
