// A tiny attention step whose shapes are all macros: the block is D x B, the grid 1 x
// ceil(S / B) of an exact quotient, so the guard around the staged tile holds in every thread
// and the barrier inside it is reached by the whole block.
#include "hip_check.h"

#define B 5
#define S 10
#define D 2

__global__ void reverse_heads(const float* __restrict__ q, float* __restrict__ o) {
    __shared__ float tile[D * B];
    const int x = threadIdx.x, y = threadIdx.y;
    const int idx = x + blockDim.x * blockIdx.x, idy = y + blockDim.y * blockIdx.y;
    if (x < D && y < B && idx < D && idy < S) {
        tile[x + D * y] = q[idx + idy * D];
        __syncthreads();
        o[idx + idy * D] = tile[(D - 1 - x) + D * y];
    }
}

int main() {
    float *q, *o;
    HIP_CHECK(hipMalloc(&q, S * D * sizeof(float)));
    HIP_CHECK(hipMalloc(&o, S * D * sizeof(float)));
    HIP_CHECK(hipMemset(q, 0, S * D * sizeof(float)));
    const int rows = (S + B - 1) / B;
    dim3 grid(1, rows), block(D, B);
    reverse_heads<<<grid, block>>>(q, o);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(q));
    HIP_CHECK(hipFree(o));
    return 0;
}
