// Clean: a placement tool's force computation in the style of analytical placers. The file
// keeps an unrolled variant of its kernel as a template that nothing launches or instantiates
// ("not used for now"): the compiler never generates code for it, so its unguarded accesses and
// its barrier under a thread test run nowhere. The kernel the launcher uses is guarded.
#include "cuda_check.h"

template <typename T>
__global__ void computeForceUnrolled(const T* density, T* force, int num_bins) {
    __shared__ T tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_bins) {
        tile[threadIdx.x] = density[i];
        __syncthreads();
    }
    force[i] = tile[threadIdx.x] * T(2);
}

__global__ void computeForce(const float* density, float* force, int num_bins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_bins) {
        force[i] = density[i] * 2.0f;
    }
}

void computeForceLauncher(const float* density, float* force, int num_bins) {
    computeForce<<<(num_bins + 255) / 256, 256>>>(density, force, num_bins);
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
