// Bad: a device reset releases only what is allocated when it runs on every path. A buffer
// allocated after the reset, one that a `return` before the reset takes away, and one that only
// an error branch resets are still leaked.
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

__global__ void fill(float* p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

void after_reset(int n)
{
    float* first;
    HIP_CHECK(hipMalloc(&first, n * sizeof(float)));
    fill<<<(n + 255) / 256, 256>>>(first, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceReset());
    float* second;
    HIP_CHECK(hipMalloc(&second, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(second, n);
    HIP_CHECK(hipGetLastError());
}

void early_return(int n)
{
    float* buffer;
    HIP_CHECK(hipMalloc(&buffer, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(buffer, n);
    if (hipGetLastError() != hipSuccess) return;
    HIP_CHECK(hipDeviceReset());
}

void reset_on_error(int n)
{
    float* buffer;
    HIP_CHECK(hipMalloc(&buffer, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(buffer, n);
    if (hipGetLastError() != hipSuccess) {
        fprintf(stderr, "launch failed\n");
        HIP_CHECK(hipDeviceReset());
    }
}
