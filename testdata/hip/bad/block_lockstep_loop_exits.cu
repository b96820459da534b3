// Bad: the exit test keeps the thread's part (`i >= n`): the tail threads of the last block
// leave the loop early, and the rest wait at a barrier they never reach.
#include <hip/hip_runtime.h>

__global__ void sum_lockstep(const float* in, float* out, size_t n)
{
    __shared__ float partial[256];
    float acc = 0.f;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    while (true) {
        if (i >= n) break;
        acc += in[i];
        i += (size_t)blockDim.x * gridDim.x;
        __syncthreads(); // expect: divergent-barrier
    }
    partial[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.f;
        for (int k = 0; k < 256; ++k) total += partial[k];
        out[blockIdx.x] = total;
    }
}

void sum(const float* in, float* out, size_t n, hipStream_t stream)
{
    hipLaunchKernelGGL(sum_lockstep, (n + 255) / 256, 256, 0, stream, in, out, n);
    if (hipGetLastError() != hipSuccess) return;
}
