// Clean: warp 0 scans the counts with its lanes stepping by 32 up to a multiple of 32, so the
// whole warp takes every trip of the shuffles; a later loop declares another `i`, stepped by a
// group's width, and another `++i` under a test of the thread, which are no concern of the first
// loop's.
#include <cuda_runtime.h>

__device__ int warp_prefix(int v)
{
    for (int d = 1; d < 32; d <<= 1) {
        int o = __shfl_up_sync(0xffffffff, v, d);
        if ((threadIdx.x & 31) >= d) v += o;
    }
    return v;
}

__global__ void plan_tiles(const int* counts, int* starts, int* tiles, int n, int group)
{
    if (threadIdx.x < 32) {
        int padded = (n + 31) / 32 * 32;
        int carry = 0;
        for (int i = threadIdx.x % 32; i < padded; i += 32) {
            int v = i < n ? counts[i] : 0;
            int s = warp_prefix(v);
            if (i < n) starts[i] = carry + s - v;
            carry += __shfl_sync(0xffffffff, s, 31);
        }
    }
    __syncthreads();
    for (int i = threadIdx.x / group; i < n; i += blockDim.x / group) {
        tiles[i] = starts[i];
    }
    if (threadIdx.x < group) {
        int total = 0;
        for (int i = 0; i < group; ++i) total += tiles[i];
        tiles[n + threadIdx.x] = total;
    }
}

void plan(const int* counts, int* starts, int* tiles, int n, cudaStream_t stream)
{
    plan_tiles<<<1, 256, 0, stream>>>(counts, starts, tiles, n, 4);
    if (cudaGetLastError() != cudaSuccess) return;
}
