// Packing a sub-grid into a contiguous buffer: the linear thread index is split into the
// sub-grid's coordinates with `%` and `/`, and the test on the outer coordinate
// (`tid / xextent < yextent`) bounds the linear index itself by `xextent * yextent`, the packed
// buffer's length, which is also what the launch is rounded up from.
#include <cstdio>
#include "cuda_check.h"

__global__ void pack2d(const float* src, float* dst, long xdim, long xoff, long yoff,
                       long xextent, long yextent) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int dst_idx = tid;
    const long xidx = tid % xextent;
    tid = tid / xextent;
    const long yidx = tid;
    if (yidx < yextent) {
        dst[dst_idx] = src[xidx + xoff + (yidx + yoff) * xdim];
    }
}

void copy_out(const float* src, float* dst, long xdim, long xoff, long yoff, long xextent,
              long yextent, cudaStream_t stream) {
    const int threads = 256;
    const long n = xextent * yextent;
    const int blocks = (n + threads - 1) / threads;
    pack2d<<<blocks, threads, 0, stream>>>(src, dst, xdim, xoff, yoff, xextent, yextent);
    CUDA_CHECK(cudaGetLastError());
}
