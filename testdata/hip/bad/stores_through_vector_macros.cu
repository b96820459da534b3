// Bad: the vector macro on the right of the assignment loads from `a`, which nothing wrote: the
// kernel doubles uninitialized memory. Only the store through the macro on the left is a write.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

#define LDST32BITS(value) (reinterpret_cast<half2*>(&(value))[0])

__global__ void double_pairs(half* a, half* c, int n)
{
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
    if (i + 1 < n) LDST32BITS(c[i]) = __hadd2(LDST32BITS(a[i]), LDST32BITS(a[i]));
}

int main()
{
    const int n = 1024;
    half* d_a = nullptr;
    half* d_c = nullptr;
    if (hipMalloc(&d_a, n * sizeof(half)) != hipSuccess) return 1;
    if (hipMalloc(&d_c, n * sizeof(half)) != hipSuccess) return 1;
    hipLaunchKernelGGL(double_pairs, (n / 2 + 255) / 256, 256, 0, 0, d_a, d_c, n); // expect: uninitialized-device-read
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    hipFree(d_a);
    hipFree(d_c);
    return 0;
}
