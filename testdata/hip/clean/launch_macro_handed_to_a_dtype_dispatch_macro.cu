// A cache writer in the style of serving engines: the launch is a macro handed by name to a
// dtype-dispatch macro, which calls it with each element type. One block per token and 96
// threads, of which the last 32 copy the rotary part, two elements each, inside its 64.
#include <hip/hip_fp16.h>
#include "hip_check.h"

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
    HIP_CHECK(hipGetLastError());
}

int main() {
    const int tokens = 16, stride = ROPE_DIM;
    float *k_pe, *cache;
    long* slots;
    long host_slots[tokens];
    for (int t = 0; t < tokens; ++t) host_slots[t] = t;
    HIP_CHECK(hipMalloc(&k_pe, tokens * stride * sizeof(float)));
    HIP_CHECK(hipMalloc(&cache, tokens * ROPE_DIM * sizeof(float)));
    HIP_CHECK(hipMalloc(&slots, tokens * sizeof(long)));
    HIP_CHECK(hipMemset(k_pe, 0, tokens * stride * sizeof(float)));
    HIP_CHECK(hipMemcpy(slots, host_slots, sizeof(host_slots), hipMemcpyHostToDevice));
    write_cache(k_pe, cache, slots, tokens, stride, 0);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(k_pe));
    HIP_CHECK(hipFree(cache));
    HIP_CHECK(hipFree(slots));
    return 0;
}
