// Seed 002_197ac18f8a0bc17f.txt, example 2: CUDA analog of allocating a 1M-float tensor per iteration and never releasing it.
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

__global__ void fillKernel(float* data, float value, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        data[i] = value;
    }
}

__global__ void accumulateKernel(const float* data, float* total, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(total, data[i]);
    }
}

int main() {
    const int iterations = 10000;
    const int elems = 1024 * 1024;
    const int threads = 256;
    const int blocks = 1024;

    float* d_total = nullptr;
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(float)));

    for (int i = 0; i < iterations; ++i) {
        float* d_tensor = nullptr;
        // tensors.append(torch.cuda.FloatTensor(1024*1024).fill_(i)) -- never released
        CUDA_CHECK(cudaMalloc(&d_tensor, elems * sizeof(float))); // expect: device-memory-leak
        fillKernel<<<blocks, threads>>>(d_tensor, static_cast<float>(i), elems);
        CUDA_CHECK(cudaGetLastError());
        accumulateKernel<<<blocks, threads>>>(d_tensor, d_total, elems);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    float total = 0.0f;
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
    printf("sum = %e\n", total);

    CUDA_CHECK(cudaFree(d_total));
    return 0;
}
