// Bad: a `constexpr` whose value is known (16) splits each warp in two before a full-mask
// shuffle; the compile-time constants the reading cannot compute are left alone (see the clean
// fixture `warp_groups_split_at_compile_time_constants.cu`).
#include "cuda_check.h"

constexpr int kHalfWarp = 16;

__global__ void half_sums(const float* in, float* out) {
    int lane = threadIdx.x % 32;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < kHalfWarp) {
        v += __shfl_down_sync(0xffffffff, v, 8); // expect: partial-warp-shuffle
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

void run(const float* in, float* out, int blocks) {
    half_sums<<<blocks, 256>>>(in, out);
    CUDA_CHECK(cudaGetLastError());
}
