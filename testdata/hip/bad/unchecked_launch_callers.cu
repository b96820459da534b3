// Bad: launch errors left to the callers, where a caller does not check.
// A launcher whose other callers check: the finding is on the call that does not, with the
// launch as its label. A launcher none of whose callers checks: the finding stays on the launch,
// the calls are its labels. A function nobody in the file calls: judged on its own.
#include <cstdio>
#include <cstdlib>
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

__global__ void scale_kernel(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

__global__ void shift_kernel(float* x, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += b;
}

// A thin launcher: its callers check.
void scale_cuda(float* x, float a, int n, hipStream_t stream) {
    hipLaunchKernelGGL(scale_kernel, (n + 255) / 256, 256, 0, stream, x, a, n); // expect-label: unchecked-kernel-launch
}

void forward(float* x, int n, hipStream_t stream) {
    scale_cuda(x, 2.0f, n, stream);
    HIP_CHECK(hipGetLastError());
}

void backward(float* x, int n, hipStream_t stream) {
    scale_cuda(x, 0.5f, n, stream); // expect: unchecked-kernel-launch
    HIP_CHECK(hipStreamSynchronize(stream));
}

// No caller checks: the launch carries the finding, the calls are its labels.
void shift_cuda(float* x, float b, int n) {
    hipLaunchKernelGGL(shift_kernel, (n + 255) / 256, 256, 0, 0, x, b, n); // expect: unchecked-kernel-launch
}

void prepare(float* x, int n) {
    shift_cuda(x, 1.0f, n); // expect-label: unchecked-kernel-launch
    HIP_CHECK(hipDeviceSynchronize());
}

// An entry point of a library: no caller in sight, judged on its own as before.
void shift_and_scale(float* x, int n) {
    hipLaunchKernelGGL(shift_kernel, (n + 255) / 256, 256, 0, 0, x, -1.0f, n); // expect: unchecked-kernel-launch
    hipLaunchKernelGGL(scale_kernel, (n + 255) / 256, 256, 0, 0, x, 3.0f, n); // expect: unchecked-kernel-launch
}

// The check after a dispatch covers the branch that ran, and the launch before the dispatch: a
// launch error stays the last error until something reads it.
void run_twice(float* x, int n, bool fast) {
    hipLaunchKernelGGL(scale_kernel, (n + 255) / 256, 256, 0, 0, x, 4.0f, n);
    if (fast) {
        hipLaunchKernelGGL(shift_kernel, (n + 255) / 256, 256, 0, 0, x, 1.0f, n);
    } else {
        hipLaunchKernelGGL(shift_kernel, (n + 1023) / 1024, 1024, 0, 0, x, 1.0f, n);
    }
    HIP_CHECK(hipGetLastError());
}
