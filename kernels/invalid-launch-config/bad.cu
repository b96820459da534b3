// cudalint demo: invalid-launch-config (bad). 2048 threads per block exceeds the 1024-thread hardware limit, so the kernel never runs.
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

__global__ void increment(int* counters, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        counters[i] += i % 3 + 1;
    }
}

int main() {
    const int n = 1000;
    int* h_counters = (int*)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) {
        h_counters[i] = rand() % 100;
    }

    int* d_counters = nullptr;
    CUDA_CHECK(cudaMalloc(&d_counters, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_counters, h_counters, n * sizeof(int), cudaMemcpyHostToDevice));

    increment<<<(n + 2047) / 2048, 2048>>>(d_counters, n); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_counters, d_counters, n * sizeof(int), cudaMemcpyDeviceToHost));
    printf("counters[5] = %d\n", h_counters[5]);

    CUDA_CHECK(cudaFree(d_counters));
    free(h_counters);
    return 0;
}
