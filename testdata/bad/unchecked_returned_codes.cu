// Bad: error codes handed to the callers, where the callers drop them. A wrapper whose other
// callers test its result: the finding is on the call that does not. A wrapper no caller tests:
// the finding stays on the CUDA call it returns, the calls are its labels.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s'\n", cudaGetErrorString(err_));   \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

static cudaError_t upload(float* d, const float* h, size_t n) {
    return cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // expect-label: unchecked-cuda-call
}

static cudaError_t download(float* h, const float* d, size_t n) {
    return cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost); // expect: unchecked-cuda-call
}

void load_weights(float* d, const float* h, size_t n) {
    CUDA_CHECK(upload(d, h, n));
}

void load_bias(float* d, const float* h, size_t n) {
    if (upload(d, h, n) != cudaSuccess) {
        fprintf(stderr, "bias upload failed\n");
    }
}

void load_inputs(float* d, const float* h, size_t n) {
    upload(d, h, n); // expect: unchecked-cuda-call
}

void read_outputs(float* h, const float* d, size_t n) {
    download(h, d, n); // expect-label: unchecked-cuda-call
}
