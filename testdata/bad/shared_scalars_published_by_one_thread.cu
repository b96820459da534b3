// Bad: every thread stores its own window start into the shared bound and reads it back with no
// barrier in between: a thread can see its own store, or another's, so threads take different
// trip counts and the loop's barriers are not reached by the whole block.
#include <cuda_runtime.h>

__global__ void merge_windows(const int* a, int* out, int a_size)
{
    __shared__ int a_top;
    __shared__ int tile[256];
    a_top = (threadIdx.x / 32) * 64; // expect: shared-memory-race
    while (a_top < a_size) {
        tile[threadIdx.x] = a_top + threadIdx.x < a_size ? a[a_top + threadIdx.x] : 0;
        __syncthreads(); // expect: divergent-barrier
        out[threadIdx.x] += tile[threadIdx.x];
        if (threadIdx.x == 0) a_top += 256;
        __syncthreads(); // expect: divergent-barrier
    }
}

void merge(const int* a, int* out, int a_size)
{
    merge_windows<<<1, 256>>>(a, out, a_size);
    if (cudaGetLastError() != cudaSuccess) return;
}
