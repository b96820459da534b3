// Clean: `n` segments have `n + 1` offsets (fence posts), and the launcher covers exactly that
// many threads: `i <= n` is the test of the count it launched for.
#include <hip/hip_runtime.h>

template <unsigned kThreads>
__launch_bounds__(kThreads) __global__
    void set_uniform_offsets(const int segments, const int step, int* offsets)
{
    const int i = blockIdx.x * kThreads + threadIdx.x;
    if (i <= segments)
        offsets[i] = i * step;
}

int set_offsets(hipStream_t stream, int segments, int step, int* offsets)
{
    const int threads = 32;
    const int blocks = (segments + 1 + threads - 1) / threads;
    set_uniform_offsets<threads><<<blocks, threads, 0, stream>>>(segments, step, offsets);
    return hipGetLastError() != hipSuccess;
}
