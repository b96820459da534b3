// Bad: the launch names its kernel through an object-like macro, and rounds its grid up to
// whole blocks of 256: the threads past `n` in the last block write past the end of `out`.
#include <hip/hip_runtime.h>

#define SCALE_KERNEL scale_kernel

__global__ void scale_kernel(const float* in, float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i]; // expect: unguarded-thread-index
}

int main()
{
    const int n = 1000;
    float* d_in = nullptr;
    float* d_out = nullptr;
    if (hipMalloc(&d_in, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMalloc(&d_out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(d_in, 0, n * sizeof(float)) != hipSuccess) return 1;
    SCALE_KERNEL<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    hipFree(d_in);
    hipFree(d_out);
    return 0;
}
