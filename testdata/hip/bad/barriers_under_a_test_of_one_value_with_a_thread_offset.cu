// Bad: the same backward pass with the end of the sequence computed for the block alone, without
// the thread's channel. `_t < _tend - 2 * C` then compares a per-thread position with a block
// value: the last threads of the block leave the branch a step before the first ones, and the
// barriers inside are reached by part of the block.
#include <hip/hip_runtime.h>
#include "hip_check.h"

template <int N>
__global__ void wkv_backward(const int B, const int T, const int C, const int H,
                             const float *__restrict__ const gy, float *__restrict__ const gw)
{
    const int b = blockIdx.x / H;
    const int h = blockIdx.x % H;
    const int i = threadIdx.x;
    __shared__ float gyy[N];
    float acc = 0;
    const int _tend = (b + 1) * T * C + h * N + N / 2;
    for (int _t = b * T * C + h * N + i; _t < _tend; _t += C) {
        gyy[i] = gy[_t];
        if (_t < _tend - 2 * C) {
            gyy[i] = gy[_t + 2 * C];
            __syncthreads(); // expect: divergent-barrier
            for (int j = 0; j < N; j++)
                acc += gyy[j];
        }
    }
    gw[blockIdx.x * N + i] = acc;
}

void wkv_backward_cuda(int B, int T, int C, int H, const float *gy, float *gw)
{
    constexpr int N = 64; // C == H * N
    hipLaunchKernelGGL(HIP_KERNEL_NAME(wkv_backward<N>), dim3(B * H), dim3(N), 0, 0, B, T, C, H, gy, gw);
    HIP_CHECK(hipGetLastError());
}
