// Kernels loaded and launched by a host in another language: each splits the input by the
// grid it is given (`blockDim.x * gridDim.x` threads, each a span of the characters) and keeps
// one result per thread, in buffers the launcher allocates with one slot per launched thread.
// No launch here says how large the grid is, and none is needed: a slot indexed only by the
// thread's global index holds whatever grid the buffer was sized for.
#include <cstdio>
#include "cuda_check.h"

__global__ void count_newlines(const char* text, long n, int* per_thread) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = blockDim.x * gridDim.x;
    long span = (n + threads - 1) / threads;
    long start = index * span;
    int count = 0;
    for (long i = start; i < start + span && i < n; i++) {
        count += text[i] == '\n';
    }
    per_thread[index] = count;
}

__global__ void escape_carries(const char* text, long n, const bool* carry_in, bool* carry_out) {
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    int threads = blockDim.x * gridDim.x;
    long span = (n + threads - 1) / threads;
    bool carry = index == 0 ? false : carry_in[index - 1];
    for (long i = index * span; i < (index + 1) * span && i < n; i++) {
        carry = text[i] == '\\' ? !carry : false;
    }
    carry_out[index] = carry;
}

// a grid-stride sum leaving each thread's part in its slot, launched with whole blocks
__global__ void partial_sums(const float* x, int n, float* partial) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int i = t; i < n; i += blockDim.x * gridDim.x) {
        sum += x[i];
    }
    partial[t] = sum;
}

float sum(const float* d_x, int n) {
    const int blocks = 64, threads = 256;
    float* d_partial;
    CUDA_CHECK(cudaMalloc(&d_partial, blocks * threads * sizeof(float)));
    partial_sums<<<blocks, threads>>>(d_x, n, d_partial);
    CUDA_CHECK(cudaGetLastError());
    float host[64 * 256];
    CUDA_CHECK(cudaMemcpy(host, d_partial, sizeof(host), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_partial));
    float total = 0.0f;
    for (float part : host) total += part;
    return total;
}
