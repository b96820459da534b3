// Bad: device allocations that are never released (allocation inside a loop, and a function-local buffer).
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

__global__ void scaleBatch(const float* in, float* out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * s;
    }
}

__global__ void sumKernel(const float* in, float* total, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(total, in[i]);
    }
}

static void processBatches(const std::vector<float>& h_in, int batchSize, int numBatches) {
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_out, batchSize * sizeof(float)));
    for (int b = 0; b < numBatches; ++b) {
        float* d_batch = nullptr;
        CUDA_CHECK(cudaMalloc(&d_batch, batchSize * sizeof(float))); // expect: device-memory-leak
        CUDA_CHECK(cudaMemcpy(d_batch, h_in.data() + (size_t)b * batchSize, batchSize * sizeof(float), cudaMemcpyHostToDevice));
        scaleBatch<<<(batchSize + 255) / 256, 256>>>(d_batch, d_out, 0.5f, batchSize);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_out));
}

static float deviceMean(const std::vector<float>& h_values) {
    const int n = static_cast<int>(h_values.size());
    float* d_values = nullptr;
    float* d_total = nullptr;
    CUDA_CHECK(cudaMalloc(&d_values, n * sizeof(float))); // expect: device-memory-leak
    CUDA_CHECK(cudaMalloc(&d_total, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_values, h_values.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_total, 0, sizeof(float)));
    sumKernel<<<64, 256>>>(d_values, d_total, n);
    CUDA_CHECK(cudaGetLastError());
    float total = 0.0f;
    CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_total));
    return total / n;
}

int main() {
    const int batchSize = 4096;
    const int numBatches = 16;
    std::vector<float> h_in((size_t)batchSize * numBatches);
    for (size_t i = 0; i < h_in.size(); ++i) h_in[i] = static_cast<float>(rand() % 1000) / 10.0f;
    processBatches(h_in, batchSize, numBatches);
    for (int k = 0; k < 3; ++k) {
        printf("mean = %f\n", deviceMean(h_in));
    }
    return 0;
}
