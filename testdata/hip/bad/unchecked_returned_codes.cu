// Bad: error codes handed to the callers, where the callers drop them. A wrapper whose other
// callers test its result: the finding is on the call that does not. A wrapper no caller tests:
// the finding stays on the CUDA call it returns, the calls are its labels.
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

static hipError_t upload(float* d, const float* h, size_t n) {
    return hipMemcpy(d, h, n * sizeof(float), hipMemcpyHostToDevice); // expect-label: unchecked-cuda-call
}

static hipError_t download(float* h, const float* d, size_t n) {
    return hipMemcpy(h, d, n * sizeof(float), hipMemcpyDeviceToHost); // expect: unchecked-cuda-call
}

void load_weights(float* d, const float* h, size_t n) {
    HIP_CHECK(upload(d, h, n));
}

void load_bias(float* d, const float* h, size_t n) {
    if (upload(d, h, n) != hipSuccess) {
        fprintf(stderr, "bias upload failed\n");
    }
}

void load_inputs(float* d, const float* h, size_t n) {
    upload(d, h, n); // expect: unchecked-cuda-call
}

void read_outputs(float* h, const float* d, size_t n) {
    download(h, d, n); // expect-label: unchecked-cuda-call
}
