// cudalint demo: partial-warp-shuffle (good). The whole warp reaches the shuffle; lanes past n add zero.
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

#define FULL_MASK 0xffffffff

// Each warp adds its elements and lane 0 adds the warp's sum to the total.
__global__ void warpSums(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(out, v);
    }
}

int main() {
    const int n = 1000;
    const int blocks = (n + 255) / 256;
    float* h_in = (float*)malloc(n * sizeof(float));
    double expected = 0.0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(i % 7);
        expected += h_in[i];
    }
    float* d_in = nullptr;
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof(float)));
    warpSums<<<blocks, 256>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    float total = 0.0f;
    CUDA_CHECK(cudaMemcpy(&total, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    printf("gpu sum = %f, cpu sum = %f\n", total, expected);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(h_in);
    return 0;
}
