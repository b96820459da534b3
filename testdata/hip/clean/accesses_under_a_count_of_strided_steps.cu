// Clean: an unrolled copy in the style of elementwise kernels of inference engines. Each thread
// starts at `off` and takes up to UNROLL steps of BLOCK elements; `cnt` counts the steps from
// `off` that stay below `n` (a division rounded up, 0 past the end). `if (cnt >= UNROLL)` lets a
// thread take every step unguarded, and the tail tests `i < cnt`: no access passes `n`.
#include <cstdint>
#include <hip/hip_runtime.h>

__device__ __forceinline__ uint32_t div_round_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

template <int BLOCK, int UNROLL, typename T>
__global__ void copy_unrolled(const T *x, T *y, uint32_t n)
{
    uint32_t off = blockIdx.x * BLOCK * UNROLL + threadIdx.x;
    uint32_t cnt = n > off ? div_round_up(n - off, BLOCK) : 0;
    T reg[UNROLL];
    if (cnt >= UNROLL) {
#pragma unroll
        for (int i = 0; i < UNROLL; ++i) reg[i] = x[off + i * BLOCK];
#pragma unroll
        for (int i = 0; i < UNROLL; ++i) y[off + i * BLOCK] = reg[i];
    } else {
#pragma unroll
        for (int i = 0; i < UNROLL; ++i)
            if (i < cnt) y[off + i * BLOCK] = x[off + i * BLOCK];
    }
}

template <int BLOCK, typename T>
__global__ void scale_strided(T *y, T alpha, int n)
{
    int off = blockIdx.x * BLOCK * 4 + threadIdx.x;
    int steps = (n - off + BLOCK - 1) / BLOCK;
    for (int i = 0; i < steps && i < 4; ++i) y[off + BLOCK * i] *= alpha;
}

void copy(const float *x, float *y, uint32_t n, hipStream_t stream)
{
    constexpr int BLOCK = 128, UNROLL = 4;
    uint32_t grid = div_round_up(n, BLOCK * UNROLL);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(copy_unrolled<BLOCK, UNROLL>), grid, BLOCK, 0, stream, x, y, n);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(scale_strided<BLOCK>), grid, BLOCK, 0, stream, y, 2.0f, (int)n);
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) return;
}
