// A grid-wide reduction over a cooperative grid whose host allocates one slot per block, not per
// thread: `partial[grid.thread_rank()]` writes past the buffer from the second block on.
#include <hip/hip_cooperative_groups.h>
#include "hip_check.h"

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
    HIP_CHECK(hipMalloc(&d_partial, sizeof(float) * slots));
    void* args[] = {(void*)&d_in, (void*)&d_partial, (void*)&n};
    HIP_CHECK(hipLaunchCooperativeKernel((void*)partial_sums<kBlock>, blocks, kBlock, args, 0, 0));
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_partial));
}
