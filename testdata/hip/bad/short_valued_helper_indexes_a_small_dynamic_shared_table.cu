// A 16-bit symbol read through a helper declared to return `unsigned short` indexes a dynamic
// shared table that the launch gives only 256 bytes: symbols of 256 and more read past it.
#include <cstdio>
#include "hip_check.h"

__device__ inline unsigned short symbol_at(const unsigned* words, unsigned position) {
    return (words[position >> 1] >> ((position & 1U) << 4)) & 0xFFFFU;
}

__global__ void count_symbols(unsigned size, const unsigned* words, unsigned* counts) {
    extern __shared__ unsigned char seen[];
    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id < size) {
        seen[symbol_at(words, id)] = 1; // expect: out-of-range-access
        atomicAdd(&counts[id & 255U], 1u);
    }
}

void count_file(unsigned size, const unsigned* d_words, unsigned* d_counts) {
    hipLaunchKernelGGL(count_symbols, (size + 255) / 256, 256, 256, 0, size, d_words, d_counts);
    HIP_CHECK(hipGetLastError());
}
