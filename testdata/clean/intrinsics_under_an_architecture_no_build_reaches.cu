// Clean: the branch under `#if __CUDA_ARCH__ >= 4000000` is a disabled trial: no pass of a
// build (host, or a device pass of any architecture) meets the test, so its legacy shuffles are
// never compiled. The `#else` branch, with the `_sync` shuffles, is the code that runs.
#include <cuda_runtime.h>
#include "cuda_check.h"

struct Force {
    float3 acc;
    int nnb;
    __device__ void reduce_with(const int mask)
    {
#if __CUDA_ARCH__ >= 4000000
        acc.x += __shfl_xor(acc.x, mask);
        acc.y += __shfl_xor(acc.y, mask);
        acc.z += __shfl_xor(acc.z, mask);
        nnb += __shfl_xor(nnb, mask);
#else
        acc.x += __shfl_xor_sync(0xffffffff, acc.x, mask);
        acc.y += __shfl_xor_sync(0xffffffff, acc.y, mask);
        acc.z += __shfl_xor_sync(0xffffffff, acc.z, mask);
        nnb += __shfl_xor_sync(0xffffffff, nnb, mask);
#endif
    }
};

__global__ void force_reduce_kernel(const Force* fpart, Force* ftot, int ni)
{
    const int iaddr = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    Force f = fpart[blockIdx.x * blockDim.x + threadIdx.x];
    for (int mask = 16; mask > 0; mask >>= 1) f.reduce_with(mask);
    if ((threadIdx.x & 31) == 0) ftot[iaddr] = f;
}

void reduce(const Force* d_fpart, Force* d_ftot, int ni)
{
    force_reduce_kernel<<<ni, 32>>>(d_fpart, d_ftot, ni);
    CUDA_CHECK(cudaGetLastError());
}
