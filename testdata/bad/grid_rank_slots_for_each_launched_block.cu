// A grid-wide reduction over a cooperative grid whose host allocates one slot per block, not per
// thread: `partial[grid.thread_rank()]` writes past the buffer from the second block on.
#include <cooperative_groups.h>
#include "cuda_check.h"

namespace cg = cooperative_groups;

template <int kBlockSize>
__global__ void partial_sums(const float* in, float* partial, unsigned n) {
    cg::grid_group grid = cg::this_grid();
    float sum = 0.0f;
    for (unsigned i = grid.thread_rank(); i < n; i += grid.size()) {
        sum += in[i];
    }
    partial[grid.thread_rank()] = sum;  // expect: unguarded-thread-index
    grid.sync();
}

void reduce(const float* d_in, unsigned n, int blocks) {
    constexpr int kBlock = 256;
    unsigned slots = blocks;
    float* d_partial = nullptr;
    CUDA_CHECK(cudaMalloc(&d_partial, sizeof(float) * slots));
    void* args[] = {(void*)&d_in, (void*)&d_partial, (void*)&n};
    CUDA_CHECK(cudaLaunchCooperativeKernel((void*)partial_sums<kBlock>, blocks, kBlock, args, 0, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_partial));
}
