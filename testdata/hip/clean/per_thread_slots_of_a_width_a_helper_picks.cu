// Clean: the block width is picked at run time by a helper (an approximation fitted to the input
// size), and the per-thread result buffer is allocated with that very width times the block
// count, so every thread of the launch owns exactly one slot whatever the helper returns. The
// random states are sized by the very helper call that sizes the grid, into a pointer the caller
// hands in by address.
#include <hip/hip_runtime.h>
#include "hip_check.h"

unsigned threadsFor(unsigned long long points) {
    const unsigned long long fitted = 32 + points / 20000;
    return fitted > 1024 ? 1024 : (unsigned)(fitted / 32 * 32);
}

__global__ void countNonZero(const int* in, unsigned long long n, unsigned long long* count) {
    const unsigned long long chunk = n / (gridDim.x * blockDim.x) + 1;
    const unsigned long long id = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long c = 0;
    for (unsigned long long i = id * chunk; i < (id + 1) * chunk && i < n; ++i) c += in[i] != 0;
    count[id] = c;
}

void countAll(const int* d_in, unsigned long long n, unsigned blocks, unsigned long long* h_count) {
    const unsigned threads = threadsFor(n);
    unsigned long long* d_count;
    HIP_CHECK(hipMalloc(&d_count, blocks * threads * sizeof(unsigned long long)));
    hipLaunchKernelGGL(countNonZero, blocks, threads, 0, 0, d_in, n, d_count);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_count, d_count, blocks * threads * sizeof(unsigned long long),
                          hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_count));
}

const int kStateThreads = 512;

inline long long stateBlocks(long long n) {
    const long long blocks = (n + kStateThreads - 1) / kStateThreads;
    return blocks < 8192 ? blocks : 8192;
}

__global__ void seedStates(unsigned long long seed, unsigned long long* state) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    state[id] = seed ^ (unsigned long long)id;
}

void initStates(long long n, unsigned long long seed, unsigned long long** states) {
    HIP_CHECK(hipMalloc(states, stateBlocks(n) * kStateThreads * sizeof(unsigned long long)));
    hipLaunchKernelGGL(seedStates, stateBlocks(n), kStateThreads, 0, 0, seed, *states);
    HIP_CHECK(hipGetLastError());
}
