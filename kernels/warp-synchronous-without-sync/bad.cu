// cudalint demo: warp-synchronous-without-sync (bad). The unrolled last-warp reduction relies on lanes running in lockstep.
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

#define BLOCK 64

// The last 64 partial sums are folded by the first warp without any synchronisation.
__global__ void blockSum(const float* in, float* out) {
    volatile __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    if (tid < 32) {
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16]; // expect: warp-synchronous-without-sync
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
    }
    if (tid == 0) {
        out[blockIdx.x] = s[0];
    }
}

int main() {
    const int blocks = 64;
    const int n = blocks * BLOCK;
    float* h_in = (float*)malloc(n * sizeof(float));
    float* h_out = (float*)malloc(blocks * sizeof(float));
    double expected = 0.0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(i % 5);
        expected += h_in[i];
    }
    float* d_in = nullptr;
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    blockSum<<<blocks, BLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    double total = 0.0;
    for (int b = 0; b < blocks; ++b) {
        total += h_out[b];
    }
    printf("gpu sum = %f, cpu sum = %f\n", total, expected);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return 0;
}
