// A cache writer in the style of serving engines: the launch is a macro handed by name to a
// dtype-dispatch macro, which calls it with each element type. One block per token and 96
// threads, of which the last 32 copy the rotary part, two elements each, inside its 64.
#include <cuda_fp16.h>
#include "cuda_check.h"

#define ROPE_DIM 64

template <typename T>
__global__ void cache_rope(const T* __restrict__ k_pe, T* __restrict__ cache,
                           const long* __restrict__ slots, int stride) {
    const long token = blockIdx.x;
    const long slot = slots[token];
    if (slot < 0) return;
    if (threadIdx.x >= 64) {
        const int e = (threadIdx.x - 64) * 2;
        cache[slot * ROPE_DIM + e] = k_pe[token * stride + e];
        cache[slot * ROPE_DIM + e + 1] = k_pe[token * stride + e + 1];
    }
}

#define DISPATCH_BY_DTYPE(dtype, FN) \
    if (dtype == 0) {                \
        FN(float);                   \
    } else {                         \
        FN(__half);                  \
    }

#define CALL_CACHE_ROPE(T) \
    cache_rope<T><<<grid, block>>>((const T*)k_pe, (T*)cache, slots, stride);

void write_cache(const void* k_pe, void* cache, const long* slots, int num_tokens, int stride,
                 int dtype) {
    dim3 grid(num_tokens);
    dim3 block(96);
    DISPATCH_BY_DTYPE(dtype, CALL_CACHE_ROPE);
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    const int tokens = 16, stride = ROPE_DIM;
    float *k_pe, *cache;
    long* slots;
    long host_slots[tokens];
    for (int t = 0; t < tokens; ++t) host_slots[t] = t;
    CUDA_CHECK(cudaMalloc(&k_pe, tokens * stride * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&cache, tokens * ROPE_DIM * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&slots, tokens * sizeof(long)));
    CUDA_CHECK(cudaMemset(k_pe, 0, tokens * stride * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(slots, host_slots, sizeof(host_slots), cudaMemcpyHostToDevice));
    write_cache(k_pe, cache, slots, tokens, stride, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(k_pe));
    CUDA_CHECK(cudaFree(cache));
    CUDA_CHECK(cudaFree(slots));
    return 0;
}
