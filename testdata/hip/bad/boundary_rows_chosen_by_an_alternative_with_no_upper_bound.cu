// A boundary kernel whose northern alternative tests only the row's lower side: the threads of
// the rounded-up grid past the last row take that alternative too and write beyond the field.
#include <cstdio>
#include "hip_check.h"

__global__ void relax_sponge_rows(float* eta, int width, int height, int sponge_south,
                                  int sponge_north) {
    const int ti = blockIdx.x * blockDim.x + threadIdx.x;
    const int tj = blockIdx.y * blockDim.y + threadIdx.y;
    if (((tj > 0 && tj < sponge_south) || tj > height - 1 - sponge_north) && ti > 0 &&
        ti < width - 1) {
        eta[tj * width + ti] *= 0.5f; // expect: unguarded-thread-index
    }
}

void apply_boundaries(int nx, int ny, int sponge) {
    const int width = nx + 2, height = ny + 2;
    float* d_eta;
    HIP_CHECK(hipMalloc(&d_eta, width * height * sizeof(float)));
    HIP_CHECK(hipMemset(d_eta, 0, width * height * sizeof(float)));
    dim3 block(16, 16);
    dim3 grid((width + 15) / 16, (height + 15) / 16);
    hipLaunchKernelGGL(relax_sponge_rows, grid, block, 0, 0, d_eta, width, height, sponge, sponge);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_eta));
}
