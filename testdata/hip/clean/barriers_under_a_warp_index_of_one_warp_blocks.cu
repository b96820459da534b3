// Clean: a decoupled look-back scan in which every block is one warp (`tblock_size`, held in a
// local, is 32 at the only launch). The global thread index shifted right by 5 is then the
// block's index: the test `warp > 0` around the barrier is the same for the whole block, and
// `offsets[warp + 1]` stays inside the `blocks + 1` entries the host allocates for a grid of
// `blocks` blocks. The remainder `idx & 0x1f` is the thread's lane.
#include "hip_check.h"

static const int tblock_size = 32;  // one warp per block
static const int chunk = 1024;

__global__ void chained_scan(const unsigned* counts, unsigned* offsets, volatile int* flags,
                             size_t n) {
    __shared__ unsigned exclusive;
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = idx & 0x1f;
    const int warp = idx >> 5;
    unsigned total = 0;
    for (int j = 0; j < chunk; j++) {
        size_t at = (size_t)warp * chunk * tblock_size + (size_t)j * tblock_size + lane;
        if (at < n) total += counts[at];
    }
    for (int i = 1; i < 32; i <<= 1) {
        unsigned up = __shfl_up_sync(0xffffffff, total, i);
        if (lane >= i) total += up;
    }
    if (lane == 31) {
        offsets[warp + 1] = total;
        __threadfence();
        flags[warp + 1] = (warp == 0) ? 2 : 1;
    }
    __syncthreads();
    if (warp > 0) {
        if (!lane) {
            unsigned sum = 0;
            for (int back = warp; back > 0; back--) {
                while (flags[back] == 0) {
                }
                sum += offsets[back];
                if (flags[back] == 2) break;
            }
            exclusive = sum;
        }
        __syncthreads();
    }
}

void scan_counts(const unsigned* d_counts, size_t n, hipStream_t stream) {
    int bsize = tblock_size;
    int blocks = (n + bsize * chunk - 1) / (bsize * chunk);
    unsigned* d_offsets;
    int* d_flags;
    HIP_CHECK(hipMalloc((void**)&d_offsets, sizeof(unsigned) * (blocks + 1)));
    HIP_CHECK(hipMemset(d_offsets, 0, sizeof(unsigned) * (blocks + 1)));
    HIP_CHECK(hipMalloc((void**)&d_flags, sizeof(int) * (blocks + 1)));
    HIP_CHECK(hipMemset(d_flags, 0, sizeof(int) * (blocks + 1)));
    dim3 block(bsize), grid(blocks);
    chained_scan<<<grid, block, 0, stream>>>(d_counts, d_offsets, d_flags, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipFree(d_offsets));
    HIP_CHECK(hipFree(d_flags));
}
