// Bad: the tail of the copy tests `i <= count`, one step more than the count of strided steps
// below `n`, so the thread with a partial tail writes one stride past the end of `y`. The
// helper's header also includes a compatibility header that redefines `__global__` for host
// builds; the CUDA build this file is read as keeps its kernels.
#include <cstdint>
#include <utils.hpp>

template <int BLOCK, int UNROLL, typename T>
__global__ void copy_kernel(const T *x, T *y, uint32_t n)
{
    uint32_t offset = blockIdx.x * BLOCK * UNROLL + threadIdx.x;
    uint32_t count = n > offset ? UIntDivRU<uint32_t>(n - offset, BLOCK) : 0;
    const T *x_ptr = x + offset;
    T *y_ptr = y + offset;
    for (int i = 0; i < UNROLL; ++i)
        if (i <= count) y_ptr[i * BLOCK] = x_ptr[i * BLOCK]; // expect: unguarded-thread-index
}

cudaError_t copy(const float *x, float *y, uint32_t n, cudaStream_t stream)
{
    const uint32_t grid = UIntDivRU<uint32_t>(n, 128 * 4);
    copy_kernel<128, 4><<<grid, 128, 0, stream>>>(x, y, n);
    return cudaGetLastError();
}
