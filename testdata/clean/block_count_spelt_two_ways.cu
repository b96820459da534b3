// Clean: one block of `nproma` threads per slab of columns. The allocations count the blocks
// as `numcols / nproma + min(numcols % nproma, 1)`, the launch as a floating ceiling: the same
// number, so every thread of the grid owns a column of every buffer.
#include <algorithm>
#include <cmath>
#include <cuda_runtime.h>

__global__ void cloud_scheme(int klon, int klev, const double *__restrict__ temperature,
                             const double *__restrict__ pressure_half,
                             double *__restrict__ tendency, double *__restrict__ rain_fraction)
{
    int jl = threadIdx.x;
    int ibl = blockIdx.z;
    rain_fraction[jl + klon * ibl] = 0.0;
    double surface = pressure_half[jl + klon * (klev + (klev + 1) * ibl)];
    for (int jk = 0; jk < klev; jk++) {
        tendency[jl + klon * (jk + klev * ibl)] =
            temperature[jl + klon * (jk + klev * ibl)] / surface;
    }
}

int run_cloud_scheme(int numcols, int nproma, int nlev)
{
    int nblocks = (numcols / nproma) + std::min(numcols % nproma, 1);
    double *d_t, *d_ph, *d_tend, *d_rain;
    if (cudaMalloc(&d_t, sizeof(double) * nblocks * nlev * nproma) != cudaSuccess ||
        cudaMalloc(&d_ph, sizeof(double) * nblocks * (nlev + 1) * nproma) != cudaSuccess ||
        cudaMalloc(&d_tend, sizeof(double) * nblocks * nlev * nproma) != cudaSuccess ||
        cudaMalloc(&d_rain, sizeof(double) * nblocks * nproma) != cudaSuccess)
        return 1;
    if (cudaMemset(d_t, 0, sizeof(double) * nblocks * nlev * nproma) != cudaSuccess ||
        cudaMemset(d_ph, 0, sizeof(double) * nblocks * (nlev + 1) * nproma) != cudaSuccess)
        return 1;

    dim3 blockdim(nproma, 1, 1);
    dim3 griddim(1, 1, ceil(((double)numcols) / ((double)nproma)));
    cloud_scheme<<<griddim, blockdim>>>(nproma, nlev, d_t, d_ph, d_tend, d_rain);
    int status = cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess;

    status |= cudaFree(d_t) != cudaSuccess;
    status |= cudaFree(d_ph) != cudaSuccess;
    status |= cudaFree(d_tend) != cudaSuccess;
    status |= cudaFree(d_rain) != cudaSuccess;
    return status;
}
