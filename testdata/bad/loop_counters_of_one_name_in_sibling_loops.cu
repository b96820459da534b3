// Bad: the scan's loop stops at `n` itself: in its last trip only the lanes below `n` take the
// shuffle, which names the whole warp.
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
        int carry = 0;
        for (int i = threadIdx.x % 32; i < n; i += 32) {
            int v = counts[i];
            int s = warp_prefix(v); // expect: partial-warp-shuffle
            starts[i] = carry + s - v;
            carry += __shfl_sync(0xffffffff, s, 31);
        }
    }
    __syncthreads();
    for (int i = threadIdx.x / group; i < n; i += blockDim.x / group) {
        tiles[i] = starts[i];
    }
}

void plan(const int* counts, int* starts, int* tiles, int n, cudaStream_t stream)
{
    plan_tiles<<<1, 256, 0, stream>>>(counts, starts, tiles, n, 4);
    if (cudaGetLastError() != cudaSuccess) return;
}
