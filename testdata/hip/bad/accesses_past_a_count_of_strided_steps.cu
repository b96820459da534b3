// Bad: the unrolled copy's tail tests `i <= cnt`, one step more than the count of steps from
// `off` that stay below `n`: the last thread with a partial tail reads and writes one stride
// past the end. The scaling kernel counts steps of BLOCK but strides by 2 * BLOCK.
#include <cstdint>
#include <hip/hip_runtime.h>
#include "hip_check.h"

__device__ __forceinline__ uint32_t div_round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

template <int BLOCK, int UNROLL, typename T>
__global__ void copy_unrolled(const T *x, T *y, uint32_t n)
{
    uint32_t off = blockIdx.x * BLOCK * UNROLL + threadIdx.x;
    uint32_t cnt = n > off ? div_round_up(n - off, BLOCK) : 0;
    for (int i = 0; i < UNROLL; ++i)
        if (i <= cnt) y[off + i * BLOCK] = x[off + i * BLOCK]; // expect: unguarded-thread-index
}

template <int BLOCK, typename T>
__global__ void scale_strided(T *y, T alpha, int n)
{
    int off = blockIdx.x * BLOCK * 4 + threadIdx.x;
    int steps = (n - off + BLOCK - 1) / BLOCK;
    for (int i = 0; i < steps && i < 4; ++i) y[off + 2 * BLOCK * i] *= alpha; // expect: unguarded-thread-index
}

void copy(const float *x, float *y, uint32_t n, hipStream_t stream)
{
    constexpr int BLOCK = 128, UNROLL = 4;
    uint32_t grid = div_round_up(n, BLOCK * UNROLL);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(copy_unrolled<BLOCK, UNROLL>), grid, BLOCK, 0, stream, x, y, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(HIP_KERNEL_NAME(scale_strided<BLOCK>), grid, BLOCK, 0, stream, y, 2.0f, (int)n);
    HIP_CHECK(hipGetLastError());
}
