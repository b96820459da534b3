// Clean: device helpers that read a shared row (their own element before the barrier, a
// neighbour after it), and atomics on a shared counter that only a barrier separates from its
// reset and its read.
#include <hip/hip_runtime.h>
#define BLOCK 128

__device__ float leftNeighbour(const float* row, int i) {
    return i > 0 ? row[i - 1] : row[i];
}

__device__ float own(const float* row, int i) {
    return row[i];
}

// The helpers read the row: their own element before the barrier, a neighbour after it.
__global__ void smoothAfterBarrier(const float* in, float* out) {
    __shared__ float row[BLOCK];
    int t = threadIdx.x;
    row[t] = in[blockIdx.x * BLOCK + t];
    float mine = own(row, t);
    __syncthreads();
    out[blockIdx.x * BLOCK + t] = 0.5f * (mine + leftNeighbour(row, t));
}

__device__ void countPositive(int* hits, float v) {
    if (v > 0.0f) atomicAdd(hits, 1);
}

__global__ void countAfterReset(const float* in, int* out) {
    __shared__ int hits;
    if (threadIdx.x == 0) hits = 0;
    __syncthreads();
    countPositive(&hits, in[blockIdx.x * BLOCK + threadIdx.x]);
    atomicAdd(&hits, 1);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = hits;
}

void launch(const float* in, float* out, int* counts, int n) {
    hipLaunchKernelGGL(smoothAfterBarrier, n / BLOCK, BLOCK, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(countAfterReset, n / BLOCK, BLOCK, 0, 0, in, counts);
    if (hipGetLastError() != hipSuccess) return;
}
