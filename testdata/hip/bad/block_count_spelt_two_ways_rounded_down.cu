// Bad: the launch rounds the block count up with a floating ceiling, but the allocations count
// whole slabs only (`numcols / nproma`): when `nproma` does not divide `numcols`, the last
// block's threads write one slab past the end of every buffer.
#include <cmath>
#include <hip/hip_runtime.h>
#include "hip_check.h"

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
    HIP_CHECK(hipMalloc(&d_t, sizeof(double) * nblocks * nlev * nproma));
    HIP_CHECK(hipMalloc(&d_tend, sizeof(double) * nblocks * nlev * nproma));
    HIP_CHECK(hipMalloc(&d_rain, sizeof(double) * nblocks * nproma));
    HIP_CHECK(hipMemset(d_t, 0, sizeof(double) * nblocks * nlev * nproma));

    dim3 blockdim(nproma, 1, 1);
    dim3 griddim(1, 1, ceil(((double)numcols) / ((double)nproma)));
    cloud_scheme<<<griddim, blockdim>>>(nproma, nlev, d_t, d_tend, d_rain);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(d_t));
    HIP_CHECK(hipFree(d_tend));
    HIP_CHECK(hipFree(d_rain));
    return 0;
}
