// Bad: the launch rounds the block count up with a floating ceiling, but the allocations count
// whole slabs only (`numcols / nproma`): when `nproma` does not divide `numcols`, the last
// block's threads write one slab past the end of every buffer.
#include <cmath>
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void cloud_scheme(int klon, int klev, const double *__restrict__ temperature,
                             double *__restrict__ tendency, double *__restrict__ rain_fraction)
{
    int jl = threadIdx.x;
    int ibl = blockIdx.z;
    rain_fraction[jl + klon * ibl] = 0.0; // expect: unguarded-thread-index
    for (int jk = 0; jk < klev; jk++) {
        tendency[jl + klon * (jk + klev * ibl)] = 2.0 * temperature[jl + klon * (jk + klev * ibl)];
    }
}

int main()
{
    int numcols = 1000, nproma = 128, nlev = 4;
    int nblocks = numcols / nproma;
    double *d_t, *d_tend, *d_rain;
    CUDA_CHECK(cudaMalloc(&d_t, sizeof(double) * nblocks * nlev * nproma));
    CUDA_CHECK(cudaMalloc(&d_tend, sizeof(double) * nblocks * nlev * nproma));
    CUDA_CHECK(cudaMalloc(&d_rain, sizeof(double) * nblocks * nproma));
    CUDA_CHECK(cudaMemset(d_t, 0, sizeof(double) * nblocks * nlev * nproma));

    dim3 blockdim(nproma, 1, 1);
    dim3 griddim(1, 1, ceil(((double)numcols) / ((double)nproma)));
    cloud_scheme<<<griddim, blockdim>>>(nproma, nlev, d_t, d_tend, d_rain);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_t));
    CUDA_CHECK(cudaFree(d_tend));
    CUDA_CHECK(cudaFree(d_rain));
    return 0;
}
