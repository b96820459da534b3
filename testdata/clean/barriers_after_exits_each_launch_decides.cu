// Eight threads per hash: the block is `threads << 3` wide and the launch passes the item count
// `blocks * threads`, so `(global index) >> 3` stays below the count in every thread. Neither
// the early return nor the branch around the barrier leaves a thread out.
#include "cuda_check.h"

__global__ void scratchpad_fill(int threads, const unsigned* seeds, unsigned* state)
{
    __shared__ unsigned table[1024];
    const int thread = (blockDim.x * blockIdx.x + threadIdx.x) >> 3;
    if (thread >= threads) return;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) table[i] = seeds[i];
    __syncthreads();
    state[thread * 8 + (threadIdx.x & 7)] = table[(threadIdx.x * 7) & 1023];
}

__global__ void scratchpad_mix(unsigned threads, unsigned* state)
{
    __shared__ unsigned table[1024];
    const unsigned thread = (blockDim.x * blockIdx.x + threadIdx.x) >> 3;
    if (thread < threads) {
        for (int i = threadIdx.x; i < 1024; i += blockDim.x) table[i] = i;
        __syncthreads();
        state[thread * 8 + (threadIdx.x & 7)] ^= table[(threadIdx.x * 5) & 1023];
    }
}

cudaError_t hash_batch(int blocks, int threads, const unsigned* seeds, unsigned* state)
{
    dim3 grid(blocks);
    dim3 block8(threads << 3);
    scratchpad_fill<<<grid, block8>>>(blocks * threads, seeds, state);
    CUDA_CHECK(cudaGetLastError());
    scratchpad_mix<<<grid, block8>>>(blocks * threads, state);
    return cudaGetLastError();
}
