// Clean: kernels that only write their output buffers (never copied to first), producer/consumer kernels,
// and device-to-device copies.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

__global__ void iota(int* out, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        out[i] = i;
    }
}

__global__ void linspace(float* out, float lo, float hi, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        out[i] = lo + (hi - lo) * i / (count - 1);
    }
}

__global__ void hashValues(const int* keys, unsigned int* hashes, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        unsigned int h = static_cast<unsigned int>(keys[i]) * 2654435761u;
        hashes[i] = h ^ (h >> 16);
    }
}

int main() {
    const int count = 1000;
    int* d_keys = nullptr;
    unsigned int* d_hashes = nullptr;
    float* d_grid = nullptr;
    float* d_gridCopy = nullptr;
    CUDA_CHECK(cudaMalloc(&d_keys, count * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_hashes, count * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&d_grid, count * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_gridCopy, count * sizeof(float)));

    const int threads = 256;
    const int blocks = (count + threads - 1) / threads;
    iota<<<blocks, threads>>>(d_keys, count);
    CUDA_CHECK(cudaGetLastError());
    hashValues<<<blocks, threads>>>(d_keys, d_hashes, count);
    CUDA_CHECK(cudaGetLastError());
    linspace<<<blocks, threads>>>(d_grid, -1.0f, 1.0f, count);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(d_gridCopy, d_grid, count * sizeof(float), cudaMemcpyDeviceToDevice));

    unsigned int h_hashes[4];
    float h_grid[4];
    CUDA_CHECK(cudaMemcpy(h_hashes, d_hashes, sizeof(h_hashes), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_grid, d_gridCopy, sizeof(h_grid), cudaMemcpyDeviceToHost));
    printf("hash[1] = %u grid[1] = %f\n", h_hashes[1], h_grid[1]);

    CUDA_CHECK(cudaFree(d_keys));
    CUDA_CHECK(cudaFree(d_hashes));
    CUDA_CHECK(cudaFree(d_grid));
    CUDA_CHECK(cudaFree(d_gridCopy));
    return 0;
}
