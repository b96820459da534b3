// A feature matcher that keeps its device buffers in function-local statics: they are allocated
// on the first call only (`if (!distances)`) and reused by every later one, a cache that lives
// as long as the process, not memory each call loses.
#include <cstdio>
#include "hip_check.h"

#define MAX_FEATURES 4096
#define DESCRIPTOR_WORDS 8
#define TILE 16

__global__ void hamming(unsigned char* distances, const unsigned* a, const unsigned* b) {
    int i = blockIdx.x * TILE + threadIdx.x;
    int j = blockIdx.y * TILE + threadIdx.y;
    int d = 0;
    for (int k = 0; k < DESCRIPTOR_WORDS; ++k)
        d += __popc(a[i * DESCRIPTOR_WORDS + k] ^ b[j * DESCRIPTOR_WORDS + k]);
    distances[j * MAX_FEATURES + i] = (unsigned char)d;
}

void match(const unsigned* a_host, const unsigned* b_host, unsigned char* distances_host) {
    static unsigned *a, *b;
    static unsigned char* distances;
    const size_t words = MAX_FEATURES * DESCRIPTOR_WORDS * sizeof(unsigned);
    if (!distances) {
        HIP_CHECK(hipMalloc(&distances, MAX_FEATURES * MAX_FEATURES));
        HIP_CHECK(hipMalloc(&a, words));
        HIP_CHECK(hipMalloc(&b, words));
    }
    HIP_CHECK(hipMemcpy(a, a_host, words, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(b, b_host, words, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(hamming, dim3(MAX_FEATURES / TILE, MAX_FEATURES / TILE), dim3(TILE, TILE), 0, 0, distances, a, b);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(distances_host, distances, MAX_FEATURES * MAX_FEATURES,
                          hipMemcpyDeviceToHost));
}
