// Hash-join build and probe kernels written as a state machine: each thread advances its own
// grid-strided cursor by hand, the bound test is kept in a flag recomputed on every pass, and
// the flag widened with `||` only ever marks more threads as done.
// `bool active = i < n; if (active) { key = r[i]; i += stride; }` reads `r[i]` before the
// cursor moves, and `bool pruned = gid >= n; pruned = pruned || !marked(gid);` leaves `pruned`
// false only where `gid < n`, so every access below is in bounds.
#include <cstdint>
#include <cstdio>
#include "cuda_check.h"

constexpr int ROUNDS = 4;

__global__ void build_table(const int32_t* keys, int32_t* slots, int n, int mask) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int stride = blockDim.x * gridDim.x;
    int finished = 0;
    for (int k = 0; finished < ROUNDS; k = (k + 1) % ROUNDS) {
        bool active = i < n;
        unsigned any = __ballot_sync(0xffffffffu, active);
        if (any) {
            if (active) {
                int32_t key = keys[i];
                i += stride;
                atomicAdd(&slots[key & mask], 1);
            }
        } else {
            ++finished;
        }
    }
}

__device__ __forceinline__ bool marked(const uint64_t* bits, uint32_t at) {
    return (bits[at >> 6] >> (at & 63)) & 1ull;
}

template <bool prune>
__global__ void compact(uint32_t n, const uint32_t* left, const uint16_t* right,
                        const uint64_t* marks, uint32_t* out) {
    const uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
    bool pruned = gid >= n;
    if constexpr (prune)
        pruned = pruned || !marked(marks, gid);
    if (!pruned)
        out[gid] = left[gid] + right[gid];
}

void join(const int32_t* d_keys, int32_t* d_slots, const uint32_t* d_left,
          const uint16_t* d_right, const uint64_t* d_marks, uint32_t* d_out, int n,
          int table_size, cudaStream_t stream) {
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    build_table<<<blocks, threads, 0, stream>>>(d_keys, d_slots, n, table_size - 1);
    CUDA_CHECK(cudaGetLastError());
    compact<true><<<blocks, threads, 0, stream>>>(n, d_left, d_right, d_marks, d_out);
    CUDA_CHECK(cudaGetLastError());
    compact<false><<<blocks, threads, 0, stream>>>(n, d_left, d_right, d_marks, d_out);
    CUDA_CHECK(cudaGetLastError());
}
