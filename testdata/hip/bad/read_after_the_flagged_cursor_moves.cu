// A hand-advanced grid-strided cursor whose bound test is kept in a flag: the flag speaks of the
// cursor it tested, so the store made after `i += stride` writes at a cursor no test bounds, and
// the last pass of the threads near the end writes past `slots`.
#include <cstdint>
#include <cstdio>
#include "hip_check.h"

__global__ void shift_keys(const int32_t* keys, int32_t* slots, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    const int stride = blockDim.x * gridDim.x;
    for (int pass = 0; pass < 4; ++pass) {
        bool active = i < n;
        if (active) {
            int32_t key = keys[i];
            i += stride;
            slots[i] = key; // expect: unguarded-thread-index
        }
    }
}

void shift(const int32_t* d_keys, int32_t* d_slots, int n, hipStream_t stream) {
    const int threads = 256;
    hipLaunchKernelGGL(shift_keys, (n + threads - 1) / threads, threads, 0, stream, d_keys, d_slots, n);
    HIP_CHECK(hipGetLastError());
}
