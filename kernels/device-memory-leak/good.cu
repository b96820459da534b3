// cudalint demo: device-memory-leak (good). One staging buffer is allocated before the loop and freed after it.
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

__global__ void normalizeBatch(const float* in, float* out, float scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * scale;
    }
}

int main() {
    const int n = 1000;
    const int numBatches = 1000;
    float* h_batch = (float*)malloc(n * sizeof(float));
    float* h_result = (float*)malloc(n * sizeof(float));

    size_t freeBefore = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBefore, &totalBytes));

    float* d_out = nullptr;
    float* d_batch = nullptr;
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_batch, n * sizeof(float)));

    for (int b = 0; b < numBatches; ++b) {
        for (int i = 0; i < n; ++i) {
            h_batch[i] = static_cast<float>((b * 31 + i * 7) % 997) + 1.0f;
        }
        CUDA_CHECK(cudaMemcpy(d_batch, h_batch, n * sizeof(float), cudaMemcpyHostToDevice));
        normalizeBatch<<<(n + 255) / 256, 256>>>(d_batch, d_out, 1.0f / 997.0f, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(h_result, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    }

    size_t freeAfter = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeAfter, &totalBytes));
    printf("last result[0] = %f, device memory in use grew by %zu KiB\n", h_result[0],
           freeBefore > freeAfter ? (freeBefore - freeAfter) >> 10 : (size_t)0);

    CUDA_CHECK(cudaFree(d_batch));
    CUDA_CHECK(cudaFree(d_out));
    free(h_batch);
    free(h_result);
    return 0;
}
