// The pole kernel: one thread per block (see ESP/poles_driver.cu), so the loops that fill its
// __shared__ arrays run in one thread and the two blocks along x cover the two poles exactly.
#pragma once
#include <cuda_runtime.h>

template <int NN>
__global__ void diffusion_poles(double* diff, const double* rho, const double* areas,
                                const int* neighbours, int num) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    id += num - 2;
    const int nv = gridDim.y;
    const int lev = blockIdx.y;

    __shared__ double rho_p[NN + 1];
    __shared__ double areas_p[NN];
    __shared__ int neighbours_p[NN];

    for (int i = 0; i < NN; i++) neighbours_p[i] = neighbours[id * 6 + i];
    for (int i = 0; i < NN; i++) areas_p[i] = areas[id * 6 + i];
    rho_p[0] = rho[id * nv + lev];
    for (int i = 1; i < NN + 1; i++) rho_p[i] = rho[neighbours_p[i - 1] * nv + lev];

    double lap = 0.0;
    for (int k = 0; k < NN; k++) lap += (rho_p[k + 1] - rho_p[0]) * areas_p[k];
    diff[id * nv + lev] = lap;
}
