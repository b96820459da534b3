// Clean: kernels given no extent to test their index against (only pointers and floating-point
// values). Their launches are their contract: a constant grid over a buffer allocated for every
// thread, a grid computed elsewhere, or no launch in sight at all.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                    \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "%s\n", cudaGetErrorString(err_));               \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

#define NUM_BLOCKS 64
#define BLOCK_SIZE 256

__global__ void hashStates(unsigned long long* states, const unsigned long long* seeds)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long s = seeds[gid];
    s ^= s << 13;
    s ^= s >> 7;
    states[gid] = s;
}

__global__ void applyGain(float* samples, float gain)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    samples[t] *= gain;
}

void runHash(const unsigned long long* h_seeds, unsigned long long* h_states)
{
    const size_t count = NUM_BLOCKS * BLOCK_SIZE;
    unsigned long long *d_seeds = nullptr, *d_states = nullptr;
    CUDA_CHECK(cudaMalloc(&d_seeds, count * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_states, count * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_seeds, h_seeds, count * sizeof(unsigned long long), cudaMemcpyHostToDevice));
    hashStates<<<NUM_BLOCKS, BLOCK_SIZE>>>(d_states, d_seeds);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_states, d_states, count * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_seeds));
    CUDA_CHECK(cudaFree(d_states));
}
