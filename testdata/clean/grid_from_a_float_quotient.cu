// Clean: the interior of a padded plane, 24 by 24 threads per block, with a grid written as a
// float quotient. dim3 converts `(nx - 8) / 24.0f` to an integer by truncation, as integer
// division would: the grid never reaches past the interior.
#include <cuda_runtime.h>

__global__ void strain_from_displacement(int nxpad, int nzpad, const float *ux, float *strain,
                                         float inverse_dx)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int z = threadIdx.y + blockIdx.y * blockDim.y;
    int at = (z + 4) * nxpad + x + 4;
    strain[at] = (ux[at + 1] - ux[at - 1]) * inverse_dx;
}

int step(int nxpad, int nzpad, const float *ux, float *strain, float inverse_dx)
{
    dim3 grid((nxpad - 8) / 24.0f, (nzpad - 8) / 24.0f);
    dim3 block(24, 24, 1);
    strain_from_displacement<<<grid, block>>>(nxpad, nzpad, ux, strain, inverse_dx);
    return cudaGetLastError() != cudaSuccess;
}

int step_through_locals(int nxpad, int nzpad, const float *ux, float *strain, float inverse_dx)
{
    int blocks_x = (nxpad - 8) / 24.0f;
    int blocks_z = (nzpad - 8) / 24.0f;
    strain_from_displacement<<<dim3(blocks_x, blocks_z), dim3(24, 24)>>>(nxpad, nzpad, ux, strain,
                                                                          inverse_dx);
    return cudaGetLastError() != cudaSuccess;
}
