// Clean: a store of the value a thread just read from the same shared element changes nothing
// (every thread may do it, in any order).
#include <hip/hip_runtime.h>
#define BLOCK 128

// Each thread reads the block's offset and writes it back where it has nothing to add.
__global__ void keepOffset(const int* counts, int* out) {
    __shared__ int offset;
    if (threadIdx.x == 0) offset = counts[blockIdx.x];
    __syncthreads();
    int base = offset;
    offset = base;
    out[blockIdx.x * BLOCK + threadIdx.x] = base + threadIdx.x;
}

// A tile refreshed in place: each thread stores back the element it read.
__global__ void refreshTile(const float* in, float* out) {
    __shared__ float tile[BLOCK];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    float first = tile[0];
    tile[0] = first;
    out[blockIdx.x * BLOCK + t] = first + tile[t];
}

void launch(const int* counts, const float* in, int* outCounts, float* out, int n) {
    hipLaunchKernelGGL(keepOffset, n / BLOCK, BLOCK, 0, 0, counts, outCounts);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(refreshTile, n / BLOCK, BLOCK, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
}
