// Bad: the simulator's allocation macro is given the element count instead of the byte count,
// so the copy of `dim` doubles that follows writes past the buffer; and the state vector is
// freed by the project's free macro before the last kernel reads it.
#include <cstdio>
#include <cuda_runtime.h>
#include "cuda_check.h"

#define SAFE_ALOC_GPU(X, Y) CUDA_CHECK(cudaMalloc((void **)&(X), (Y)));
#define SAFE_FREE_GPU(X) CUDA_CHECK(cudaFree((X)));

__global__ void scale(double *sv, double alpha, long dim)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < dim) sv[i] *= alpha;
}

void normalize(const double *sv_host, double *out, long dim)
{
    double *sv_gpu;
    SAFE_ALOC_GPU(sv_gpu, dim);
    CUDA_CHECK(cudaMemcpy(sv_gpu, sv_host, dim * sizeof(double), cudaMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    int threads = 256;
    int blocks = (dim + threads - 1) / threads;
    scale<<<blocks, threads>>>(sv_gpu, 0.5, dim);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out, sv_gpu, dim * sizeof(double), cudaMemcpyDeviceToHost)); // expect: alloc-smaller-than-copy
    SAFE_FREE_GPU(sv_gpu);
    scale<<<blocks, threads>>>(sv_gpu, 2.0, dim); // expect: use-after-free
    CUDA_CHECK(cudaGetLastError());
}
