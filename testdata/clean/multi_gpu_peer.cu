// Clean: multi-GPU work: each device launches on its own buffers, and a cross-device read happens only
// after peer access has been enabled.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void scaleAdd(const float* a, const float* b, float* out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * s + b[i];
    }
}

int main() {
    int deviceCount = 0;
    CUDA_CHECK(cudaGetDeviceCount(&deviceCount));
    if (deviceCount < 2) {
        printf("needs two GPUs, found %d\n", deviceCount);
        return 0;
    }

    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_a(n), h_b(n), h_out(n);
    for (int i = 0; i < n; ++i) {
        h_a[i] = static_cast<float>(rand()) / RAND_MAX;
        h_b[i] = static_cast<float>(i % 100) / 100.0f;
    }

    int canAccess = 0;
    CUDA_CHECK(cudaDeviceCanAccessPeer(&canAccess, 1, 0));
    if (!canAccess) {
        printf("peer access 1 -> 0 not supported\n");
        return 0;
    }

    float *d0_a = nullptr, *d0_out = nullptr;
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaMalloc(&d0_a, bytes));
    CUDA_CHECK(cudaMalloc(&d0_out, bytes));
    CUDA_CHECK(cudaMemcpy(d0_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    scaleAdd<<<(n + 255) / 256, 256>>>(d0_a, d0_a, d0_out, 2.0f, n);
    CUDA_CHECK(cudaGetLastError());

    float *d1_b = nullptr, *d1_out = nullptr;
    CUDA_CHECK(cudaSetDevice(1));
    CUDA_CHECK(cudaDeviceEnablePeerAccess(0, 0));
    CUDA_CHECK(cudaMalloc(&d1_b, bytes));
    CUDA_CHECK(cudaMalloc(&d1_out, bytes));
    CUDA_CHECK(cudaMemcpy(d1_b, h_b.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaSetDevice(1));
    // d0_out lives on device 0; device 1 reads it through the peer mapping.
    scaleAdd<<<(n + 255) / 256, 256>>>(d0_out, d1_b, d1_out, 0.5f, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(h_out.data(), d1_out, bytes, cudaMemcpyDeviceToHost));
    printf("out[7] = %f\n", h_out[7]);

    CUDA_CHECK(cudaFree(d1_b));
    CUDA_CHECK(cudaFree(d1_out));
    CUDA_CHECK(cudaDeviceDisablePeerAccess(0));
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaFree(d0_a));
    CUDA_CHECK(cudaFree(d0_out));
    return 0;
}
