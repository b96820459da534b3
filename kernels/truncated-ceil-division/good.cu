// cudalint demo: truncated-ceil-division (good). The block count rounds up in integers, so the last partial block runs.
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

__global__ void scale(float* values, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        values[i] *= factor;
    }
}

int main() {
    const int n = 1000;
    const int threads = 256;
    float* h_values = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        h_values[i] = 1.0f;
    }

    float* d_values = nullptr;
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_values, h_values, n * sizeof(float), cudaMemcpyHostToDevice));

    int blocks = (n + threads - 1) / threads;
    scale<<<blocks, threads>>>(d_values, 2.0f, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_values, d_values, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("values[999] = %.1f\n", h_values[n - 1]);

    CUDA_CHECK(cudaFree(d_values));
    free(h_values);
    return 0;
}
