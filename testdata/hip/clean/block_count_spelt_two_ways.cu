// Clean: one block of `nproma` threads per slab of columns. The allocations count the blocks
// as `numcols / nproma + min(numcols % nproma, 1)`, the launch as a floating ceiling: the same
// number, so every thread of the grid owns a column of every buffer.
#include <algorithm>
#include <cmath>
#include <hip/hip_runtime.h>

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
    if (hipMalloc(&d_t, sizeof(double) * nblocks * nlev * nproma) != hipSuccess ||
        hipMalloc(&d_ph, sizeof(double) * nblocks * (nlev + 1) * nproma) != hipSuccess ||
        hipMalloc(&d_tend, sizeof(double) * nblocks * nlev * nproma) != hipSuccess ||
        hipMalloc(&d_rain, sizeof(double) * nblocks * nproma) != hipSuccess)
        return 1;
    if (hipMemset(d_t, 0, sizeof(double) * nblocks * nlev * nproma) != hipSuccess ||
        hipMemset(d_ph, 0, sizeof(double) * nblocks * (nlev + 1) * nproma) != hipSuccess)
        return 1;

    dim3 blockdim(nproma, 1, 1);
    dim3 griddim(1, 1, ceil(((double)numcols) / ((double)nproma)));
    hipLaunchKernelGGL(cloud_scheme, griddim, blockdim, 0, 0, nproma, nlev, d_t, d_ph, d_tend, d_rain);
    int status = hipGetLastError() != hipSuccess || hipDeviceSynchronize() != hipSuccess;

    status |= hipFree(d_t) != hipSuccess;
    status |= hipFree(d_ph) != hipSuccess;
    status |= hipFree(d_tend) != hipSuccess;
    status |= hipFree(d_rain) != hipSuccess;
    return status;
}
