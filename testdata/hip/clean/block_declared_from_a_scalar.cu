// Clean: an atmospheric-chemistry ensemble in the style of generated box-model drivers. The
// block is a `dim3` initialised from a scalar (`dim3 blocksize = 64;`), so its `x` is 64 and
// its `y` and `z` one; the grid rounds the cell count up by `blocksize.x`, and the count is a
// multiple of it, so every thread has a cell.
#include "hip_check.h"

#define NCELLS 2048

__global__ void integrateCell(double* concentrations, const double* rates)
{
    int cell = blockIdx.x * blockDim.x + threadIdx.x;
    concentrations[cell] += rates[cell] * 0.5;
}

int main()
{
    double *d_conc, *d_rates;
    HIP_CHECK(hipMalloc(&d_conc, NCELLS * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_rates, NCELLS * sizeof(double)));
    HIP_CHECK(hipMemset(d_conc, 0, NCELLS * sizeof(double)));
    HIP_CHECK(hipMemset(d_rates, 0, NCELLS * sizeof(double)));
    dim3 blocksize = 64;
    dim3 numblock = (NCELLS + blocksize.x - 1) / blocksize.x;
    hipLaunchKernelGGL(integrateCell, numblock, blocksize, 0, 0, d_conc, d_rates);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_conc));
    HIP_CHECK(hipFree(d_rates));
    return 0;
}
