// Clean: copy kinds held in variables or chosen by `?:` that match the buffers on the paths that
// run; a device-to-device copy between two GPUs' buffers (the runtime routes it, peer access or not).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void scale(const float* in, float* out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * s;
    }
}

static void copyBuffer(void* dst, const void* src, size_t bytes, bool toDevice) {
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
}

int main(int argc, char** argv) {
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_in(n, 1.0f), h_out(n);

    float *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    cudaMemcpyKind kind = cudaMemcpyHostToDevice;
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, kind));
    scale<<<(n + 255) / 256, 256>>>(d_in, d_out, 2.0f, n);
    CUDA_CHECK(cudaGetLastError());
    kind = cudaMemcpyDeviceToHost;
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, kind));
    const bool refresh = argc > 1;
    CUDA_CHECK(cudaMemcpy(refresh ? d_in : d_out, h_in.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_in, refresh ? h_in.data() : d_out, bytes, refresh ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice));
    copyBuffer(h_out.data(), d_out, bytes, false);

    int devices = 0;
    CUDA_CHECK(cudaGetDeviceCount(&devices));
    if (devices > 1) {
        float* d_peer = nullptr;
        CUDA_CHECK(cudaSetDevice(1));
        CUDA_CHECK(cudaMalloc(&d_peer, bytes));
        CUDA_CHECK(cudaMemcpy(d_peer, d_out, bytes, cudaMemcpyDeviceToDevice));
        CUDA_CHECK(cudaMemcpy(h_out.data(), d_peer, bytes, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaFree(d_peer));
        CUDA_CHECK(cudaSetDevice(0));
    }
    printf("out[0] = %f\n", h_out[0]);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}
