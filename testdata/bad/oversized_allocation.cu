// Bad: constant-size device allocations far beyond any GPU's memory (> 300 GiB).
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

static bool tryAllocate(void** ptr, size_t bytes) {
    cudaError_t err = cudaMalloc(ptr, bytes);
    if (err != cudaSuccess) {
        fprintf(stderr, "allocation of %zu bytes failed: %s\n", bytes, cudaGetErrorString(err));
        return false;
    }
    return true;
}

int main() {
    float* d_volume = nullptr;
    cudaError_t err = cudaMalloc(&d_volume, (size_t)10000 * 10000 * 10000 * sizeof(float)); // expect: oversized-allocation
    if (err != cudaSuccess) {
        fprintf(stderr, "volume: %s\n", cudaGetErrorString(err));
    } else {
        CUDA_CHECK(cudaFree(d_volume));
    }

    double* d_table = nullptr;
    err = cudaMalloc(&d_table, (size_t)1 << 40); // expect: oversized-allocation
    if (err != cudaSuccess) {
        fprintf(stderr, "table: %s\n", cudaGetErrorString(err));
    } else {
        CUDA_CHECK(cudaFree(d_table));
    }

    const size_t kHugeBytes = 400ULL * 1024 * 1024 * 1024;
    char* d_scratch = nullptr;
    err = cudaMalloc(&d_scratch, kHugeBytes); // expect: oversized-allocation
    if (err == cudaSuccess) {
        CUDA_CHECK(cudaFree(d_scratch));
    }

    // 16 GiB is large but plausible on current GPUs: not reported.
    float* d_ok = nullptr;
    err = cudaMalloc(&d_ok, 16ULL * 1024 * 1024 * 1024);
    if (err == cudaSuccess) {
        CUDA_CHECK(cudaFree(d_ok));
    }
    (void)cudaGetLastError();

    void* d_generic = nullptr;
    if (tryAllocate(&d_generic, 1024 * 1024)) {
        CUDA_CHECK(cudaFree(d_generic));
    }
    return 0;
}
