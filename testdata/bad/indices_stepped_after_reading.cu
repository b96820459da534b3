// Bad: `len[++g]` steps before it reads: under `g < n` the subscript reaches `n`, one past the
// last length.
#include <cuda_runtime.h>

__global__ void sum_segment_lengths(const int* len, int* out, int n, int per_thread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int g = t * per_thread;
    int total = 0;
    for (int k = 0; k < per_thread && g < n; k++) {
        total += len[++g]; // expect: unguarded-thread-index
    }
    if (t < n) out[t] = total;
}

void sum_lengths(const int* len, int* out, int n, cudaStream_t stream)
{
    sum_segment_lengths<<<(n + 255) / 256, 256, 0, stream>>>(len, out, n, 4);
    if (cudaGetLastError() != cudaSuccess) return;
}
