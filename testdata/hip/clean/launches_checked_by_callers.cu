// Clean: launches whose error is read after the launcher returns, by every caller; a dispatcher
// that checks once after a switch or a table call; one check after an if/else or if constexpr
// that launches in both branches.
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

__global__ void relu_kernel(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

__global__ void gelu_kernel(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 0.5f * x[i] * (1.0f + tanhf(0.7978845608f * x[i]));
}

__global__ void silu_kernel(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] / (1.0f + expf(-x[i]));
}

// Thin launchers: the op dispatcher checks after calling them.
void relu_cuda(float* x, int n, hipStream_t stream) {
    hipLaunchKernelGGL(relu_kernel, (n + 255) / 256, 256, 0, stream, x, n);
}

void gelu_cuda(float* x, int n, hipStream_t stream) {
    hipLaunchKernelGGL(gelu_kernel, (n + 255) / 256, 256, 0, stream, x, n);
}

void silu_cuda(float* x, int n, hipStream_t stream) {
    hipLaunchKernelGGL(silu_kernel, (n + 255) / 256, 256, 0, stream, x, n);
}

enum class Activation { Relu, Gelu, Silu };

// One check after the switch covers whichever launcher ran.
void activation_forward(Activation kind, float* x, int n, hipStream_t stream) {
    switch (kind) {
    case Activation::Relu:
        relu_cuda(x, n, stream);
        break;
    case Activation::Gelu:
        gelu_cuda(x, n, stream);
        break;
    case Activation::Silu:
        silu_cuda(x, n, stream);
        break;
    }
    HIP_CHECK(hipGetLastError());
}

// The same launchers through a table.
using Launcher = void (*)(float*, int, hipStream_t);
static const Launcher kActivations[] = {relu_cuda, gelu_cuda, silu_cuda};

void activation_by_index(int kind, float* x, int n, hipStream_t stream) {
    kActivations[kind](x, n, stream);
    HIP_CHECK(hipPeekAtLastError());
}

// A launcher whose caller checks, itself called from a function that checks: both are fine.
void relu_twice(float* x, int n, hipStream_t stream) {
    relu_cuda(x, n, stream);
    HIP_CHECK(hipGetLastError());
    relu_cuda(x, n, stream);
    HIP_CHECK(hipGetLastError());
}

// One check after an if/else covers the launch of the branch taken.
void gelu_or_silu(bool exact, float* x, int n) {
    if (exact) {
        hipLaunchKernelGGL(gelu_kernel, (n + 255) / 256, 256, 0, 0, x, n);
    } else {
        hipLaunchKernelGGL(silu_kernel, (n + 255) / 256, 256, 0, 0, x, n);
    }
    HIP_CHECK(hipGetLastError());
}

template <bool UseGelu>
void activation_fixed(float* x, int n) {
    if constexpr (UseGelu) {
        hipLaunchKernelGGL(gelu_kernel, (n + 255) / 256, 256, 0, 0, x, n);
    } else {
        hipLaunchKernelGGL(relu_kernel, (n + 255) / 256, 256, 0, 0, x, n);
    }
    HIP_CHECK(hipGetLastError());
}

void run_fixed(float* x, int n) {
    activation_fixed<true>(x, n);
    activation_fixed<false>(x, n);
}
