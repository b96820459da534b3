#include "util.cuh"
#include "gate.cuh"

__global__ void rotate(const Gate* gate, double* state, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) state[i] *= gate->theta;
}

int main() {
    const int n = 1024;
    Gate host{0, 1, 0.5};
    Gate* gate = host.upload();
    double* state;
    SAFE_ALLOC_GPU(state, n * sizeof(double));
    CUDA_SAFE_CALL(cudaMemset(state, 0, n * sizeof(double)));
    rotate<<<(n + 255) / 256, 256>>>(gate, state, n);
    CUDA_SAFE_CALL(cudaGetLastError());
    CUDA_SAFE_CALL(cudaDeviceSynchronize());
    CUDA_SAFE_CALL(cudaFree(state));
    CUDA_SAFE_CALL(cudaFree(gate));
    return 0;
}
