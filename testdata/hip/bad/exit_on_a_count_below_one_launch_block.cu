// Bad: the same reduction, but one launch passes `n = 100` with blocks of 1024 threads (the
// tail of a small array): threads 100 and up return before the barrier the others wait at.
// The other launch, `n = 1 << 24`, exits no thread; one launch that splits its block is enough.
// Likewise a grid rounded up with `block.x` over an extent the block does not divide (1000
// over 32) leaves threads past the buffers.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void reduce_neighbored(const int* g_idata, int* g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    if (tid >= n) return;
    __shared__ int partial[1024];
    partial[tid] = g_idata[blockIdx.x * blockDim.x + tid];
    __syncthreads(); // expect: divergent-barrier
    if (tid == 0) g_odata[blockIdx.x] = partial[0];
}

__global__ void stencil(const float* in, float* out) {
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    out[idx] = 2.0f * in[idx]; // expect: unguarded-thread-index
}

void run(const int* in, int* out, const int* tail, int* tail_out) {
    int size = 1 << 24;
    dim3 block(1024);
    dim3 grid((size - 1) / block.x + 1);
    reduce_neighbored<<<grid, block>>>(in, out, size);
    HIP_CHECK(hipGetLastError());
    reduce_neighbored<<<1, block>>>(tail, tail_out, 100);
    HIP_CHECK(hipGetLastError());
}

void run_stencil(const float* in, float* out) {
    unsigned int nx = 1000;
    dim3 block(32);
    dim3 grid((nx - 1) / block.x + 1);
    stencil<<<grid, block>>>(in, out);
    HIP_CHECK(hipGetLastError());
}
