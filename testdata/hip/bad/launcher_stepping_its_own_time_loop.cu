// Bad: a propagator whose launcher helper is handed the grid and block and runs the time
// loop itself, passing the kernel its own counters (`it`, `it + 1`) beside the caller's buffer
// and the file's per-GPU tables. Its caller rounds the interior up to whole blocks, so the
// last blocks run threads past the padded model at every time step.
#include "hip_check.h"

#define FAT 4
#define BLOCK_SIZE 16

__constant__ int dev_nz;
float* dev_p0[8];
float* dev_p1[8];

__global__ void stepForward(float* next, const float* current, const float* source, int it) {
    int iz = FAT + blockIdx.x * BLOCK_SIZE + threadIdx.x;
    int ix = FAT + blockIdx.y * BLOCK_SIZE + threadIdx.y;
    int iGlobal = dev_nz * ix + iz;
    next[iGlobal] = 2.0f * current[iGlobal] - next[iGlobal] + source[it];  // expect: unguarded-thread-index
}

void propagateSteps(float* dev_source, int nt, dim3 dimGridIn, dim3 dimBlockIn, int iGpu) {
    for (int it = 0; it < nt - 1; it++) {
        stepForward<<<dimGridIn, dimBlockIn>>>(dev_p1[iGpu], dev_p0[iGpu], dev_source, it + 1);
        HIP_CHECK(hipGetLastError());
        float* swap = dev_p0[iGpu];
        dev_p0[iGpu] = dev_p1[iGpu];
        dev_p1[iGpu] = swap;
    }
}

int main() {
    const int nz = 203, nx = 153, nt = 10;
    HIP_CHECK(hipMemcpyToSymbol(dev_nz, &nz, sizeof(int)));
    HIP_CHECK(hipMalloc(&dev_p0[0], nz * nx * sizeof(float)));
    HIP_CHECK(hipMalloc(&dev_p1[0], nz * nx * sizeof(float)));
    HIP_CHECK(hipMemset(dev_p0[0], 0, nz * nx * sizeof(float)));
    HIP_CHECK(hipMemset(dev_p1[0], 0, nz * nx * sizeof(float)));
    float* dev_source;
    HIP_CHECK(hipMalloc(&dev_source, nt * sizeof(float)));
    HIP_CHECK(hipMemset(dev_source, 0, nt * sizeof(float)));
    int nblockz = (nz - 2 * FAT + BLOCK_SIZE - 1) / BLOCK_SIZE;
    int nblockx = (nx - 2 * FAT + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dim3 dimGrid(nblockz, nblockx);
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    propagateSteps(dev_source, nt, dimGrid, dimBlock, 0);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(dev_source));
    HIP_CHECK(hipFree(dev_p0[0]));
    HIP_CHECK(hipFree(dev_p1[0]));
    return 0;
}
