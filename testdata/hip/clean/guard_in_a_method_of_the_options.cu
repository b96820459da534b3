// Clean: an allocator benchmark in the style of halloc's tests. The options live in a struct
// in constant memory whose method says which threads sit out (`tid >= nthreads`, or outside
// the period); every kernel leaves through it first, so no thread past `nthreads` touches the
// per-thread buffers.
#include "hip_check.h"

struct CommonOpts {
    unsigned nthreads, nallocs, group_sh, period_mask;
    __host__ __device__ bool is_thread_inactive(unsigned tid) const {
        return tid >= nthreads || (tid >> group_sh) & period_mask;
    }
};

__constant__ CommonOpts opts_g;

__global__ void countAllocs(unsigned* ctrs, unsigned itry) {
    unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
    if (opts_g.is_thread_inactive(i)) return;
    ctrs[i] = itry;
}

__global__ void freeAll(void** ptrs, const unsigned* ctrs, CommonOpts opts) {
    unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
    unsigned n = opts.nthreads;
    if (opts.is_thread_inactive(i)) return;
    for (unsigned a = 0; a < ctrs[i]; a++) ptrs[i + n * a] = nullptr;
}

int main() {
    CommonOpts opts = {1000, 4, 0, 0};
    HIP_CHECK(hipMemcpyToSymbol(opts_g, &opts, sizeof(opts)));
    unsigned* ctrs;
    void** ptrs;
    HIP_CHECK(hipMalloc(&ctrs, opts.nthreads * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&ptrs, opts.nthreads * opts.nallocs * sizeof(void*)));
    countAllocs<<<(opts.nthreads + 255) / 256, 256>>>(ctrs, 3);
    HIP_CHECK(hipGetLastError());
    freeAll<<<(opts.nthreads + 255) / 256, 256>>>(ptrs, ctrs, opts);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(ctrs));
    HIP_CHECK(hipFree(ptrs));
    return 0;
}
