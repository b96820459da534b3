// Bad: the same device pointer released twice with cudaFree.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

__global__ void fill(float* out, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = v;
    }
}

static void freeTwice(int n) {
    float* d_tmp = nullptr;
    CUDA_CHECK(cudaMalloc(&d_tmp, n * sizeof(float)));
    fill<<<(n + 255) / 256, 256>>>(d_tmp, 1.0f, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_tmp));
    printf("scratch released\n");
    CUDA_CHECK(cudaFree(d_tmp)); // expect: double-free
}

static void copyPasteCleanup(int n) {
    float* d_a = nullptr;
    float* d_b = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(d_a, 2.0f, n);
    CUDA_CHECK(cudaGetLastError());
    fill<<<(n + 255) / 256, 256>>>(d_b, 3.0f, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_a)); // expect: double-free
}

int main() {
    freeTwice(1000);
    copyPasteCleanup(1000);
    return 0;
}
