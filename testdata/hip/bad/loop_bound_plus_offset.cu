// Bad: a block-strided loop bounds its block's first element, not the element each thread adds
// its own offset to. The last block's threads with `i + threadIdx.x >= n` read and write past the
// end.
#include <hip/hip_runtime.h>

__global__ void copy_blocks(const float* in, float* out, int n) {
    for (int i = blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x) {
        out[i + threadIdx.x] = in[i + threadIdx.x]; // expect: unguarded-thread-index
    }
}

__global__ void clear_tail(float* out, int n) {
    const int tx = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    if (base < n) {
        out[base + tx] = 0.0f; // expect: unguarded-thread-index
    }
}
