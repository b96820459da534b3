// Bad: the launcher covers `segments` threads and allocates `segments` offsets, yet the kernel
// admits `i == segments`: the last thread of the count writes one past the end.
#include <cuda_runtime.h>

template <unsigned kThreads>
__launch_bounds__(kThreads) __global__
    void set_uniform_offsets(const int segments, const int step, int* offsets)
{
    const int i = blockIdx.x * kThreads + threadIdx.x;
    if (i <= segments)
        offsets[i] = i * step; // expect: out-of-range-access
}

int set_offsets(cudaStream_t stream, int segments, int step, int** out)
{
    const int threads = 32;
    const int blocks = (segments + threads - 1) / threads;
    if (cudaMalloc(out, segments * sizeof(int)) != cudaSuccess) return 1;
    set_uniform_offsets<threads><<<blocks, threads, 0, stream>>>(segments, step, *out);
    return cudaGetLastError() != cudaSuccess;
}
