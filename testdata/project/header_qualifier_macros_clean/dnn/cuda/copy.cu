// Clean: the rounding helper is a `__host__ __device__` function of a header, declared with a
// qualifier macro that another header defines. The count of strided steps it computes bounds
// each step through the pointer advanced to the thread's start; the build adds the include root
// from the top-level CMakeLists.txt, two folders up.
#include <cstdint>
#include <utils.hpp>

template <int BLOCK, int UNROLL, typename T>
__global__ void copy_kernel(const T *x, T *y, uint32_t n)
{
    uint32_t offset = blockIdx.x * BLOCK * UNROLL + threadIdx.x;
    uint32_t count = n > offset ? UIntDivRU<uint32_t>(n - offset, BLOCK) : 0;
    const T *x_ptr = x + offset;
    T *y_ptr = y + offset;
    if (count >= UNROLL) {
#pragma unroll
        for (int i = 0; i < UNROLL; ++i) y_ptr[i * BLOCK] = x_ptr[i * BLOCK];
    } else {
#pragma unroll
        for (int i = 0; i < UNROLL; ++i)
            if (i < count) y_ptr[i * BLOCK] = x_ptr[i * BLOCK];
    }
}

cudaError_t copy(const float *x, float *y, uint32_t n, cudaStream_t stream)
{
    const uint32_t grid = UIntDivRU<uint32_t>(n, 128 * 4);
    copy_kernel<128, 4><<<grid, 128, 0, stream>>>(x, y, n);
    return cudaGetLastError();
}
