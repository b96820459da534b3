// Clean: kernels given no extent to test their index against (only pointers and floating-point
// values). Their launches are their contract: a constant grid over a buffer allocated for every
// thread, a grid computed elsewhere, or no launch in sight at all.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                    \
    do {                                                                    \
        hipError_t err_ = (call);                                          \
        if (err_ != hipSuccess) {                                          \
            fprintf(stderr, "%s\n", hipGetErrorString(err_));               \
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
    HIP_CHECK(hipMalloc(&d_seeds, count * sizeof(unsigned long long)));
    HIP_CHECK(hipMalloc(&d_states, count * sizeof(unsigned long long)));
    HIP_CHECK(hipMemcpy(d_seeds, h_seeds, count * sizeof(unsigned long long), hipMemcpyHostToDevice));
    hashStates<<<NUM_BLOCKS, BLOCK_SIZE>>>(d_states, d_seeds);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_states, d_states, count * sizeof(unsigned long long), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_seeds));
    HIP_CHECK(hipFree(d_states));
}
