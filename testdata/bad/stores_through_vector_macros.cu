// Bad: the vector macro on the right of the assignment loads from `a`, which nothing wrote: the
// kernel doubles uninitialized memory. Only the store through the macro on the left is a write.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

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
    if (cudaMalloc(&d_a, n * sizeof(half)) != cudaSuccess) return 1;
    if (cudaMalloc(&d_c, n * sizeof(half)) != cudaSuccess) return 1;
    double_pairs<<<(n / 2 + 255) / 256, 256>>>(d_a, d_c, n); // expect: uninitialized-device-read
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaFree(d_a);
    cudaFree(d_c);
    return 0;
}
