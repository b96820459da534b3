// Seed 000_a089de676074e8ec.txt, example 2: CUDA analog of torch.randn(10000, 10000, 10000) (4 TB of floats per tensor).
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

// Batched square matmul: z[b] = x[b] * y[b], each n x n, batch index in blockIdx.z.
__global__ void batchedMatmul(const float* x, const float* y, float* z, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    size_t base = (size_t)blockIdx.z * n * n;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) {
            acc += x[base + (size_t)row * n + k] * y[base + (size_t)k * n + col];
        }
        z[base + (size_t)row * n + col] = acc;
    }
}

int main() {
    const int n = 10000;
    float* d_x = nullptr;
    float* d_y = nullptr;
    float* d_z = nullptr;

    cudaError_t err = cudaMalloc(&d_x, (size_t)10000 * 10000 * 10000 * sizeof(float)); // expect: oversized-allocation
    if (err != cudaSuccess) {
        fprintf(stderr, "Out of memory error encountered.  Reduce tensor sizes. (%s)\n", cudaGetErrorString(err));
        return EXIT_FAILURE;
    }
    err = cudaMalloc(&d_y, (size_t)10000 * 10000 * 10000 * sizeof(float)); // expect: oversized-allocation
    if (err != cudaSuccess) {
        fprintf(stderr, "Out of memory error encountered.  Reduce tensor sizes. (%s)\n", cudaGetErrorString(err));
        (void)cudaFree(d_x);
        return EXIT_FAILURE;
    }
    err = cudaMalloc(&d_z, (size_t)10000 * 10000 * 10000 * sizeof(float)); // expect: oversized-allocation
    if (err != cudaSuccess) {
        fprintf(stderr, "Out of memory error encountered.  Reduce tensor sizes. (%s)\n", cudaGetErrorString(err));
        (void)cudaFree(d_x);
        (void)cudaFree(d_y);
        return EXIT_FAILURE;
    }

    CUDA_CHECK(cudaMemset(d_x, 0, (size_t)10000 * 10000 * 10000 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_y, 0, (size_t)10000 * 10000 * 10000 * sizeof(float)));

    dim3 block(16, 16);
    dim3 grid((n + 15) / 16, (n + 15) / 16, n);
    batchedMatmul<<<grid, block>>>(d_x, d_y, d_z, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_z));
    return 0;
}
