// Clean: a warp's random-number helper stores to shared memory and, only in nvcc's old device
// emulation mode (removed in CUDA 3.0), waits at barriers between its steps. No build for a
// GPU compiles those barriers, so calling the helper from one warp is not a barrier in
// divergent code.
#include <cuda_runtime.h>
#include "cuda_check.h"

__device__ unsigned warp_generate(unsigned* regs, unsigned* shmem) {
#if __DEVICE_EMULATION__
    __syncthreads();
#endif
    const unsigned t0 = shmem[threadIdx.x % 32] * regs[0];
    const unsigned t1 = shmem[threadIdx.x % 32] + regs[1];
    const unsigned result = (t0 << 3) ^ (t1 >> 5) ^ regs[2];
#ifdef __DEVICE_EMULATION__
    __syncthreads();
#endif
    shmem[threadIdx.x % 32] = result;
    return t0 + t1;
}

__global__ void sample(unsigned* __restrict__ out, int per_thread) {
    __shared__ unsigned pool[32];
    unsigned regs[3] = {1u, 7u, 1234567u};
    if (threadIdx.x < 32) pool[threadIdx.x] = threadIdx.x * 2654435761u;
    __syncthreads();
    if (threadIdx.x < 32) {
        for (int k = 0; k < per_thread; ++k)
            out[(blockIdx.x * 32 + threadIdx.x) * per_thread + k] = warp_generate(regs, pool);
    }
}

int main() {
    const int blocks = 8, per_thread = 4;
    unsigned* out = nullptr;
    CUDA_CHECK(cudaMalloc(&out, sizeof(unsigned) * blocks * 32 * per_thread));
    sample<<<blocks, 64>>>(out, per_thread);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(out));
    return 0;
}
