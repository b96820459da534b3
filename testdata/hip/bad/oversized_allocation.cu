// Bad: constant-size device allocations far beyond any GPU's memory (> 300 GiB).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

static bool tryAllocate(void** ptr, size_t bytes) {
    hipError_t err = hipMalloc(ptr, bytes);
    if (err != hipSuccess) {
        fprintf(stderr, "allocation of %zu bytes failed: %s\n", bytes, hipGetErrorString(err));
        return false;
    }
    return true;
}

int main() {
    float* d_volume = nullptr;
    hipError_t err = hipMalloc(&d_volume, (size_t)10000 * 10000 * 10000 * sizeof(float)); // expect: oversized-allocation
    if (err != hipSuccess) {
        fprintf(stderr, "volume: %s\n", hipGetErrorString(err));
    } else {
        HIP_CHECK(hipFree(d_volume));
    }

    double* d_table = nullptr;
    err = hipMalloc(&d_table, (size_t)1 << 40); // expect: oversized-allocation
    if (err != hipSuccess) {
        fprintf(stderr, "table: %s\n", hipGetErrorString(err));
    } else {
        HIP_CHECK(hipFree(d_table));
    }

    const size_t kHugeBytes = 400ULL * 1024 * 1024 * 1024;
    char* d_scratch = nullptr;
    err = hipMalloc(&d_scratch, kHugeBytes); // expect: oversized-allocation
    if (err == hipSuccess) {
        HIP_CHECK(hipFree(d_scratch));
    }

    // 16 GiB is large but plausible on current GPUs: not reported.
    float* d_ok = nullptr;
    err = hipMalloc(&d_ok, 16ULL * 1024 * 1024 * 1024);
    if (err == hipSuccess) {
        HIP_CHECK(hipFree(d_ok));
    }
    (void)hipGetLastError();

    void* d_generic = nullptr;
    if (tryAllocate(&d_generic, 1024 * 1024)) {
        HIP_CHECK(hipFree(d_generic));
    }
    return 0;
}
