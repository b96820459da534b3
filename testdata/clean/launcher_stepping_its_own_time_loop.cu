// Clean: a propagator whose launcher helper is handed the grid and block and runs the time
// loop itself, passing the kernel its own counters (`it`, `it + 1`) beside the caller's buffer
// and the file's per-GPU tables. Its only caller builds the grid by floor division of the
// interior, so every thread stays inside the padded model whatever the time step.
#include "cuda_check.h"

#define FAT 4
#define BLOCK_SIZE 16

__constant__ int dev_nz;
float* dev_p0[8];
float* dev_p1[8];

__global__ void stepForward(float* next, const float* current, const float* source, int it) {
    int iz = FAT + blockIdx.x * BLOCK_SIZE + threadIdx.x;
    int ix = FAT + blockIdx.y * BLOCK_SIZE + threadIdx.y;
    int iGlobal = dev_nz * ix + iz;
    next[iGlobal] = 2.0f * current[iGlobal] - next[iGlobal] + source[it];
}

void propagateSteps(float* dev_source, int nt, dim3 dimGridIn, dim3 dimBlockIn, int iGpu) {
    for (int it = 0; it < nt - 1; it++) {
        stepForward<<<dimGridIn, dimBlockIn>>>(dev_p1[iGpu], dev_p0[iGpu], dev_source, it + 1);
        CUDA_CHECK(cudaGetLastError());
        float* swap = dev_p0[iGpu];
        dev_p0[iGpu] = dev_p1[iGpu];
        dev_p1[iGpu] = swap;
    }
}

int main() {
    const int nz = 200, nx = 150, nt = 10;
    CUDA_CHECK(cudaMemcpyToSymbol(dev_nz, &nz, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dev_p0[0], nz * nx * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dev_p1[0], nz * nx * sizeof(float)));
    CUDA_CHECK(cudaMemset(dev_p0[0], 0, nz * nx * sizeof(float)));
    CUDA_CHECK(cudaMemset(dev_p1[0], 0, nz * nx * sizeof(float)));
    float* dev_source;
    CUDA_CHECK(cudaMalloc(&dev_source, nt * sizeof(float)));
    CUDA_CHECK(cudaMemset(dev_source, 0, nt * sizeof(float)));
    int nblockz = (nz - 2 * FAT) / BLOCK_SIZE;
    int nblockx = (nx - 2 * FAT) / BLOCK_SIZE;
    dim3 dimGrid(nblockz, nblockx);
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    propagateSteps(dev_source, nt, dimGrid, dimBlock, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(dev_source));
    CUDA_CHECK(cudaFree(dev_p0[0]));
    CUDA_CHECK(cudaFree(dev_p1[0]));
    return 0;
}
