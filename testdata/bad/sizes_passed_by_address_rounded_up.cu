// Bad: a launcher called from Fortran takes the count by address, rounds the grid up to whole
// blocks of 256, and the kernel never tests the count: the last block's extra threads scale
// past the end of the vector.
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void scale_vector(double *x, double alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] *= alpha; // expect: unguarded-thread-index
}

extern "C" void scale_vector_FromC(double *x_dev, double *alpha_in, int *n_in, cudaStream_t stream)
{
    int n = *n_in;
    scale_vector<<<(n + 255) / 256, 256, 0, stream>>>(x_dev, *alpha_in);
    CUDA_CHECK(cudaGetLastError());
}
