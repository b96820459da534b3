// Bad: the same pipeline where the loading group skips the barrier that publishes the second
// buffer. The multiplying group waits at a third barrier the loaders never reach; the loaders'
// next barrier pairs with it instead, and every later tile is read a step out of phase.
#include <hip/hip_runtime.h>
#include "hip_check.h"

constexpr int NUM_THREADS_PER_PIPELINE = 128;

__global__ void gemm_pipelined(const float *A, float *C, int k)
{
    __shared__ float buf[2][NUM_THREADS_PER_PIPELINE];
    const unsigned tid = threadIdx.x;
    const unsigned pipeline_index = tid / NUM_THREADS_PER_PIPELINE;
    const unsigned local = tid - pipeline_index * NUM_THREADS_PER_PIPELINE;
    float acc = 0.f;
    if (pipeline_index == 0U)
        buf[0][local] = A[local];
    __syncthreads();
    for (int t = 0; t < k; t += 2) {
        if (pipeline_index == 0U) {
            acc += buf[0][local];
            __syncthreads(); // expect: divergent-barrier
            if (t + 2 < k)
                buf[0][local] = A[(t + 2) * NUM_THREADS_PER_PIPELINE + local];
            __syncthreads(); // expect: divergent-barrier
        } else {
            if (t + 1 < k)
                buf[1][local] = A[(t + 1) * NUM_THREADS_PER_PIPELINE + local];
            __syncthreads(); // expect: divergent-barrier
            acc += buf[0][local];
            __syncthreads(); // expect: divergent-barrier
            if (t + 1 < k)
                acc += buf[1][local];
            __syncthreads(); // expect: divergent-barrier
        }
    }
    C[tid] = acc;
}

void gemm(const float *d_a, float *d_c, int k)
{
    hipLaunchKernelGGL(gemm_pipelined, 1, 2 * NUM_THREADS_PER_PIPELINE, 0, 0, d_a, d_c, k);
    HIP_CHECK(hipGetLastError());
}
