// Bad: the launch in forward.cu reaches both implementations the header declares; this one
// forgot the bound, and whichever build links it writes past `n`.
#include "pointwise.cuh"

__global__ void pointwise(int n, const float *x, float *y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.f * x[i]; // expect: unguarded-thread-index
}
