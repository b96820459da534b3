// The same look-back scan launched with blocks of two warps: `idx >> 5` now differs between
// the two halves of block 0 (0 and 1), so half of it skips the barrier the other half waits at,
// and the warps of the blocks past the first half write past the `blocks + 1` entries it allocates.
#include "hip_check.h"

static const int chunk = 1024;

__global__ void chained_scan(const unsigned* counts, unsigned* offsets, volatile int* flags,
                             size_t n) {
    __shared__ unsigned exclusive;
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = idx & 0x1f;
    const int warp = idx >> 5;
    if (lane == 31) {
        offsets[warp + 1] = counts[0]; // expect: unguarded-thread-index
        flags[warp + 1] = 1;
    }
    __syncthreads();
    if (warp > 0) {
        if (!lane) exclusive = offsets[warp];
        __syncthreads(); // expect: divergent-barrier
    }
}

void scan_counts(const unsigned* d_counts, size_t n, hipStream_t stream) {
    int bsize = 64;
    int blocks = (n + bsize * chunk - 1) / (bsize * chunk);
    unsigned* d_offsets;
    int* d_flags;
    HIP_CHECK(hipMalloc((void**)&d_offsets, sizeof(unsigned) * (blocks + 1)));
    HIP_CHECK(hipMalloc((void**)&d_flags, sizeof(int) * (blocks + 1)));
    hipLaunchKernelGGL(chained_scan, blocks, bsize, 0, stream, d_counts, d_offsets, d_flags, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_offsets));
    HIP_CHECK(hipFree(d_flags));
}
