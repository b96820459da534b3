// Boundary-condition kernels of an ocean model: the rows they relax are picked by a test of the
// form `(south && 0 < j < S) || (north && H - N < j < H)`. Neither alternative alone is the
// guard, but each bounds the row, so whichever holds keeps the access inside the padded field.
// The ghost-column kernel pins its column to 0 or `nx + 1` the same way.
#include <cstdio>
#include "hip_check.h"

__global__ void relax_sponge_rows(float* eta, int width, int height, int sponge_south,
                                  int sponge_north, int bc_south, int bc_north) {
    const int ti = blockIdx.x * blockDim.x + threadIdx.x;
    const int tj = blockIdx.y * blockDim.y + threadIdx.y;
    if (((bc_south == 4 && tj > 0 && tj < sponge_south) ||
         (bc_north == 4 && tj > height - 1 - sponge_north && tj < height - 1)) &&
        ti > 0 && ti < width - 1) {
        eta[tj * width + ti] *= 0.5f;
    }
}

__global__ void fill_ghost_columns(float* eta, int nx, int ny, int bc_west, int bc_east) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    const int tj = blockIdx.y * blockDim.y + threadIdx.y;
    const int ti = (id == 1) ? nx + 1 : id;
    const int width = nx + 2;
    if (((ti == 0 && bc_west < 3) || (ti == nx + 1 && bc_east < 3)) && tj < ny + 2) {
        eta[tj * width + ti] = eta[tj * width + (ti == 0 ? nx : 1)];
    }
}

void apply_boundaries(float* d_eta, int nx, int ny, int sponge) {
    const int width = nx + 2, height = ny + 2;
    dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    relax_sponge_rows<<<grid, block>>>(d_eta, width, height, sponge, sponge, 4, 4);
    HIP_CHECK(hipGetLastError());
    fill_ghost_columns<<<dim3(1, (height + 15) / 16), dim3(2, 16)>>>(d_eta, nx, ny, 1, 1);
    HIP_CHECK(hipGetLastError());
}
