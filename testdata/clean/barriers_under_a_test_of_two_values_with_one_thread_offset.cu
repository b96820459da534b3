// Clean: a recurrent backward pass that walks a sequence of T steps, one block per (batch,
// head) and one thread per channel. Both the position `_t` and the end `_tend` add the thread's
// channel `i` to the block's base, so `_t < _tend - 2 * C` compares the bases: every thread of
// the block takes the branch on the same steps, and the barriers in it are reached by all.
#include <cuda_runtime.h>
#include "cuda_check.h"

template <int N>
__global__ void wkv_backward(const int B, const int T, const int C, const int H,
                             const float *__restrict__ const gy, float *__restrict__ const gw)
{
    const int b = blockIdx.x / H;
    const int h = blockIdx.x % H;
    const int i = threadIdx.x;
    __shared__ float gyy[N];
    float acc = 0;
    for (int _t = b * T * C + h * N + i, _tend = (b + 1) * T * C + h * N + i; _t < _tend; _t += C) {
        gyy[i] = gy[_t];
        __syncthreads();
        if (_t < _tend - 2 * C) {
            gyy[i] = gy[_t + 2 * C];
            __syncthreads();
            for (int j = 0; j < N; j++)
                acc += gyy[j];
            __syncthreads();
        }
    }
    gw[blockIdx.x * N + i] = acc;
}

void wkv_backward_cuda(int B, int T, int C, int H, const float *gy, float *gw)
{
    constexpr int N = 64; // C == H * N
    wkv_backward<N><<<dim3(B * H), dim3(N)>>>(B, T, C, H, gy, gw);
    CUDA_CHECK(cudaGetLastError());
}
