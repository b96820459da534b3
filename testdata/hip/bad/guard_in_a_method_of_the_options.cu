// Bad: an allocator benchmark in the style of halloc's tests. The options' method that says
// which threads sit out tests only the period, not `nthreads`, so under a grid rounded up to
// whole blocks the threads past `nthreads` write past the per-thread counters.
#include "hip_check.h"

struct CommonOpts {
    unsigned nthreads, nallocs, group_sh, period_mask;
    __host__ __device__ bool is_thread_inactive(unsigned tid) const {
        return (tid >> group_sh) & period_mask;
    }
};

__constant__ CommonOpts opts_g;

__global__ void countAllocs(unsigned* ctrs, unsigned itry) {
    unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
    if (opts_g.is_thread_inactive(i)) return;
    ctrs[i] = itry;  // expect: unguarded-thread-index
}

int main() {
    CommonOpts opts = {1000, 4, 0, 0};
    HIP_CHECK(hipMemcpyToSymbol(opts_g, &opts, sizeof(opts)));
    unsigned* ctrs;
    HIP_CHECK(hipMalloc(&ctrs, opts.nthreads * sizeof(unsigned)));
    hipLaunchKernelGGL(countAllocs, (opts.nthreads + 255) / 256, 256, 0, 0, ctrs, 3);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(ctrs));
    return 0;
}
