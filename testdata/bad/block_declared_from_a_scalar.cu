// Bad: an atmospheric-chemistry ensemble in the style of generated box-model drivers. The
// block is a `dim3` initialised from a scalar (`dim3 blocksize = 64;`), so its `x` is 64; the
// grid rounds the cell count up by `blocksize.x`, but 2,000 cells are no multiple of 64, so the
// last block's surplus threads update cells past the end of the buffers.
#include "cuda_check.h"

#define NCELLS 2000

__global__ void integrateCell(double* concentrations, const double* rates)
{
    int cell = blockIdx.x * blockDim.x + threadIdx.x;
    concentrations[cell] += rates[cell] * 0.5;  // expect: unguarded-thread-index
}

int main()
{
    double *d_conc, *d_rates;
    CUDA_CHECK(cudaMalloc(&d_conc, NCELLS * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_rates, NCELLS * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_conc, 0, NCELLS * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_rates, 0, NCELLS * sizeof(double)));
    dim3 blocksize = 64;
    dim3 numblock = (NCELLS + blocksize.x - 1) / blocksize.x;
    integrateCell<<<numblock, blocksize>>>(d_conc, d_rates);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_conc));
    CUDA_CHECK(cudaFree(d_rates));
    return 0;
}
