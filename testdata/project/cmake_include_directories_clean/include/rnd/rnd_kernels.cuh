#pragma once
#include <curand_kernel.h>
#define NUM_RND_BLOCKS 96
#define NUM_RND_THREADS_PER_BLOCK 128
#define NUM_RND_STREAMS (NUM_RND_BLOCKS * NUM_RND_THREADS_PER_BLOCK)

// one generator state per thread of the one launch shape
__global__ void uniform_fill(float *targets, curandState *state, unsigned n)
{
    const unsigned tidx = NUM_RND_THREADS_PER_BLOCK * blockIdx.x + threadIdx.x;
    curandState local = state[tidx];
    for (unsigned i = tidx; i < n; i += NUM_RND_STREAMS)
        targets[i] = curand_uniform(&local);
    state[tidx] = local;
}
