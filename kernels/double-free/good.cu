// cudalint demo: double-free (good). Each device buffer is freed exactly once.
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

__global__ void histogram(const int* values, int* bins, int n, int numBins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[values[i] % numBins], 1);
    }
}

int main() {
    const int n = 1000;
    const int numBins = 16;
    int* h_values = (int*)malloc(n * sizeof(int));
    int* h_bins = (int*)malloc(numBins * sizeof(int));
    for (int i = 0; i < n; ++i) {
        h_values[i] = rand() % 1000;
    }

    int* d_values = nullptr;
    int* d_bins = nullptr;
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_bins, numBins * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_values, h_values, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_bins, 0, numBins * sizeof(int)));

    histogram<<<(n + 255) / 256, 256>>>(d_values, d_bins, n, numBins);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_bins, d_bins, numBins * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < numBins; ++b) {
        printf("bin %2d: %d\n", b, h_bins[b]);
    }

    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_bins));
    free(h_values);
    free(h_bins);
    return 0;
}
