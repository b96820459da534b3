// Bad: the simulator's allocation macro is given the element count instead of the byte count,
// so the copy of `dim` doubles that follows writes past the buffer; and the state vector is
// freed by the project's free macro before the last kernel reads it.
#include <cstdio>
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define SAFE_ALOC_GPU(X, Y) HIP_CHECK(hipMalloc((void **)&(X), (Y)));
#define SAFE_FREE_GPU(X) HIP_CHECK(hipFree((X)));

__global__ void scale(double *sv, double alpha, long dim)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < dim) sv[i] *= alpha;
}

void normalize(const double *sv_host, double *out, long dim)
{
    double *sv_gpu;
    SAFE_ALOC_GPU(sv_gpu, dim);
    HIP_CHECK(hipMemcpy(sv_gpu, sv_host, dim * sizeof(double), hipMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    int threads = 256;
    int blocks = (dim + threads - 1) / threads;
    hipLaunchKernelGGL(scale, blocks, threads, 0, 0, sv_gpu, 0.5, dim);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(out, sv_gpu, dim * sizeof(double), hipMemcpyDeviceToHost)); // expect: alloc-smaller-than-copy
    SAFE_FREE_GPU(sv_gpu);
    hipLaunchKernelGGL(scale, blocks, threads, 0, 0, sv_gpu, 2.0, dim); // expect: use-after-free
    HIP_CHECK(hipGetLastError());
}
