// Clean: a benchmark asks for the largest buffer first and, while the allocation fails, shrinks the
// request and asks again (shoc's bus-speed and device-memory tests). A loop that runs only after a
// failed cudaMalloc never replaces a buffer it holds: a failed allocation allocates nothing, and the
// one that succeeds ends the loop, so the single cudaFree after it frees everything.
#include <cstdio>
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void fill(float* p, float v, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}

static const long long kSizes[] = {1 << 14, 1 << 18, 1 << 22, 1 << 26};

static int download(int nSizes) {
    long long n = kSizes[nSizes - 1];
    float* device = nullptr;
    (void)cudaMalloc((void**)&device, sizeof(float) * n);
    while (cudaGetLastError() != cudaSuccess) {
        if (--nSizes < 1) {
            fprintf(stderr, "not enough device memory\n");
            return 1;
        }
        n = kSizes[nSizes - 1];
        (void)cudaMalloc((void**)&device, sizeof(float) * n);
    }
    fill<<<(unsigned)((n + 255) / 256), 256>>>(device, 1.0f, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(device));
    return 0;
}

static int scratch(long long bytes) {
    char* buffer = nullptr;
    cudaError_t err = cudaMalloc((void**)&buffer, bytes);
    while (err != cudaSuccess && bytes > (1 << 20)) {
        bytes /= 2;
        err = cudaMalloc((void**)&buffer, bytes);
    }
    if (err != cudaSuccess) return 1;
    CUDA_CHECK(cudaMemset(buffer, 0, bytes));
    CUDA_CHECK(cudaFree(buffer));
    return 0;
}

static int halve_until_it_fits(long long bytes) {
    float* staging = nullptr;
    do {
        bytes /= 2;
    } while (cudaMalloc((void**)&staging, bytes) != cudaSuccess && bytes > 1);
    if (cudaGetLastError() != cudaSuccess) return 1;
    CUDA_CHECK(cudaMemset(staging, 0, bytes));
    CUDA_CHECK(cudaFree(staging));
    return 0;
}

int main() {
    int failed = download(4);
    failed += scratch(1LL << 32);
    failed += halve_until_it_fits(1LL << 34);
    return failed;
}
