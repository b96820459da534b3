// Clean: each thread sums the lengths of its segments, reading `len[g++]` while `g < n`: the
// subscript reads `g` before the step, so it never reaches `n`.
#include <cuda_runtime.h>

__global__ void sum_segment_lengths(const int* len, int* out, int n, int per_thread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int g = t * per_thread;
    int total = 0;
    for (int k = 0; k < per_thread && g < n; k++) {
        total += len[g++];
    }
    if (t < n) out[t] = total;
}

void sum_lengths(const int* len, int* out, int n, cudaStream_t stream)
{
    sum_segment_lengths<<<(n + 255) / 256, 256, 0, stream>>>(len, out, n, 4);
    if (cudaGetLastError() != cudaSuccess) return;
}
