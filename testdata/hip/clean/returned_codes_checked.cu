// Clean: wrappers that return a CUDA error code, each caller testing it, one through a wrapper
// that returns it again; a wrapper nobody in the file calls (a library entry point).
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s'\n", hipGetErrorString(err_));   \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

static hipError_t zero(float* d, size_t n) {
    return hipMemset(d, 0, n * sizeof(float));
}

static hipError_t zero_all(float* a, float* b, size_t n) {
    hipError_t err = zero(a, n);
    if (err != hipSuccess) return err;
    return zero(b, n);
}

void reset(float* a, float* b, size_t n) {
    HIP_CHECK(zero_all(a, b, n));
    hipError_t err = zero(a, n);
    if (err != hipSuccess) {
        fprintf(stderr, "reset: %s\n", hipGetErrorString(err));
    }
}

hipError_t copy_to_host(float* h, const float* d, size_t n) {
    return hipMemcpy(h, d, n * sizeof(float), hipMemcpyDeviceToHost);
}
