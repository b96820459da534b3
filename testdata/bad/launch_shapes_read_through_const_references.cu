// Bad: the helper only reads the launch's shape (`const uint32_t&`), so the dynamic shared
// bytes stay the 0 they were declared with, and the kernel's `SMEM[0]` lies past the block's
// dynamic shared memory.
#include <cstdint>
#include "cuda_check.h"

__global__ void drain(int* queue, int n) {
    extern __shared__ int SMEM[];
    int& remaining = SMEM[0];  // expect: out-of-range-access
    if (threadIdx.x == 0) remaining = n;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < remaining) queue[i] = 0;
}

static void report(const uint32_t& blocks, const uint32_t& threads, const uint32_t& shared_bytes) {
    printf("%u blocks of %u threads, %u bytes\n", blocks, threads, shared_bytes);
}

int main() {
    uint32_t threads = 256;
    uint32_t blocks = 80;
    uint32_t shared_bytes = 0;
    report(blocks, threads, shared_bytes);
    int* d_queue;
    CUDA_CHECK(cudaMalloc(&d_queue, blocks * threads * sizeof(int)));
    drain<<<blocks, threads, shared_bytes>>>(d_queue, blocks * threads);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_queue));
    return 0;
}
