// Bad: a placement tool's force computation in the style of analytical placers. The launcher
// switched to the unrolled template variant of its kernel, whose barrier sits under a thread
// test and whose last access is unguarded: instantiated by the launch, that code now runs.
#include "cuda_check.h"

template <typename T>
__global__ void computeForceUnrolled(const T* density, T* force, int num_bins) {
    __shared__ T tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_bins) {
        tile[threadIdx.x] = density[i];
        __syncthreads();  // expect: divergent-barrier
    }
    force[i] = tile[threadIdx.x] * T(2);  // expect: unguarded-thread-index
}

__global__ void computeForce(const float* density, float* force, int num_bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_bins) {
        force[i] = density[i] * 2.0f;
    }
}

void computeForceLauncher(const float* density, float* force, int num_bins) {
    computeForceUnrolled<float><<<(num_bins + 255) / 256, 256>>>(density, force, num_bins);
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    const int num_bins = 4000;
    float *density, *force;
    CUDA_CHECK(cudaMalloc(&density, num_bins * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&force, num_bins * sizeof(float)));
    CUDA_CHECK(cudaMemset(density, 0, num_bins * sizeof(float)));
    computeForceLauncher(density, force, num_bins);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(density));
    CUDA_CHECK(cudaFree(force));
    return 0;
}
