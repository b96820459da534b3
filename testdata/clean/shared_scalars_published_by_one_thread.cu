// Clean: the bounds of the window each pass merges live in shared memory. The last thread of the
// block moves them, from values it derived from its own index, and the barrier after the store
// publishes them: every thread tests the same bounds, so the loop runs the same number of passes
// in the whole block and every thread reaches its barriers.
#include <cuda_runtime.h>

__global__ void merge_windows(const int* a, const int* b, int* out, int a_size, int b_size)
{
    __shared__ int a_top, b_top;
    __shared__ int tile[256];
    if (threadIdx.x == 0) {
        a_top = 0;
        b_top = 0;
    }
    __syncthreads();
    while (a_top < a_size && b_top < b_size) {
        const int from_a = a_top + threadIdx.x;
        tile[threadIdx.x] = from_a < a_size ? a[from_a] : b[b_top];
        __syncthreads();
        out[a_top + b_top + threadIdx.x] = tile[threadIdx.x];
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1) {
            const bool took_a = tile[threadIdx.x] <= b[b_top];
            a_top = took_a ? a_top + threadIdx.x + 1 : a_top;
            b_top = took_a ? b_top : b_top + threadIdx.x + 1;
        }
        __syncthreads();
    }
}

void merge(const int* a, const int* b, int* out, int a_size, int b_size)
{
    merge_windows<<<1, 256>>>(a, b, out, a_size, b_size);
    if (cudaGetLastError() != cudaSuccess) return;
}
