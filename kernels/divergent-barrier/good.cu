// cudalint demo: divergent-barrier (good). Out-of-range threads load a neutral value instead of returning.
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

#define BLOCK_SIZE 256

// Every thread reaches every barrier; out-of-range threads contribute zero.
__global__ void blockSum(const float* in, float* partial, int n) {
    __shared__ float sdata[BLOCK_SIZE];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
    }
}

int main() {
    const int n = 1000;
    const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    float* h_in = (float*)malloc(n * sizeof(float));
    float* h_partial = (float*)malloc(blocks * sizeof(float));
    double expected = 0.0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(rand() % 100) / 10.0f + 0.1f;
        expected += h_in[i];
    }

    float* d_in = nullptr;
    float* d_partial = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));

    blockSum<<<blocks, BLOCK_SIZE>>>(d_in, d_partial, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_partial, d_partial, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    double total = 0.0;
    for (int b = 0; b < blocks; ++b) {
        total += h_partial[b];
    }
    printf("gpu sum = %f, cpu sum = %f\n", total, expected);

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_partial));
    free(h_in);
    free(h_partial);
    return 0;
}
