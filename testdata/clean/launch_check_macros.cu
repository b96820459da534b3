// Clean: the ways real code reads a launch's error after it: a message-only check macro, a macro
// whose body queries the last error, a helper function that queries and reports it, and one that
// returns it to a check.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define getLastCudaError(msg) lastErrorImpl(msg, __FILE__, __LINE__)
static void lastErrorImpl(const char* msg, const char* file, int line) {
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "%s(%d): %s: %s\n", file, line, msg, cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

#define KERNEL_LAUNCH_CHECK(stream)                                           \
    do {                                                                      \
        cudaError_t e_ = cudaPeekAtLastError();                               \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "launch on stream %p failed: %s\n",               \
                    (void*)(stream), cudaGetErrorString(e_));                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s'\n", cudaGetErrorString(err_));   \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// Reports the error itself.
static void check_launch(const char* what) {
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
        abort();
    }
}

// Hands the error to its caller.
static cudaError_t launch_status() {
    return cudaPeekAtLastError();
}

__global__ void iota(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

void iota_message(int* d, int n) {
    iota<<<(n + 255) / 256, 256>>>(d, n);
    getLastCudaError("iota failed");
}

void iota_stream(int* d, int n, cudaStream_t stream) {
    iota<<<(n + 255) / 256, 256, 0, stream>>>(d, n);
    KERNEL_LAUNCH_CHECK(stream);
}

void iota_helper(int* d, int n, const char* name) {
    iota<<<(n + 255) / 256, 256>>>(d, n);
    check_launch(name);
}

void iota_status(int* d, int n) {
    iota<<<(n + 255) / 256, 256>>>(d, n);
    CUDA_CHECK(launch_status());
}
