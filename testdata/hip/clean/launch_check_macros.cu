// Clean: the ways real code reads a launch's error after it: a message-only check macro, a macro
// whose body queries the last error, a helper function that queries and reports it, and one that
// returns it to a check.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define getLastCudaError(msg) lastErrorImpl(msg, __FILE__, __LINE__)
static void lastErrorImpl(const char* msg, const char* file, int line) {
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) {
        fprintf(stderr, "%s(%d): %s: %s\n", file, line, msg, hipGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

#define KERNEL_LAUNCH_CHECK(stream)                                           \
    do {                                                                      \
        hipError_t e_ = hipPeekAtLastError();                               \
        if (e_ != hipSuccess) {                                              \
            fprintf(stderr, "launch on stream %p failed: %s\n",               \
                    (void*)(stream), hipGetErrorString(e_));                 \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s'\n", hipGetErrorString(err_));   \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

// Reports the error itself.
static void check_launch(const char* what) {
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) {
        fprintf(stderr, "%s: %s\n", what, hipGetErrorString(err));
        abort();
    }
}

// Hands the error to its caller.
static hipError_t launch_status() {
    return hipPeekAtLastError();
}

__global__ void iota(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

void iota_message(int* d, int n) {
    hipLaunchKernelGGL(iota, (n + 255) / 256, 256, 0, 0, d, n);
    getLastCudaError("iota failed");
}

void iota_stream(int* d, int n, hipStream_t stream) {
    hipLaunchKernelGGL(iota, (n + 255) / 256, 256, 0, stream, d, n);
    KERNEL_LAUNCH_CHECK(stream);
}

void iota_helper(int* d, int n, const char* name) {
    hipLaunchKernelGGL(iota, (n + 255) / 256, 256, 0, 0, d, n);
    check_launch(name);
}

void iota_status(int* d, int n) {
    hipLaunchKernelGGL(iota, (n + 255) / 256, 256, 0, 0, d, n);
    HIP_CHECK(launch_status());
}
