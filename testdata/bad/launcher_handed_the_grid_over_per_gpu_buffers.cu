// Bad: a wave propagator in the style of Stanford SEP's multi-GPU operators. Each GPU's
// wavefields live in file-scope tables (`dev_p0[iGpu]`); a launcher helper takes the grid and
// block as parameters and launches the step on that GPU's buffers. Its caller rounds the
// interior up to whole blocks, so the last blocks run threads past the padded model.
#include "cuda_check.h"

#define FAT 4
#define BLOCK_SIZE 16

__constant__ int dev_nz;
float* dev_p0[8];
float* dev_p1[8];

__global__ void stepForward(float* next, const float* current) {
    int iz = FAT + blockIdx.x * BLOCK_SIZE + threadIdx.x;
    int ix = FAT + blockIdx.y * BLOCK_SIZE + threadIdx.y;
    next[dev_nz * ix + iz] = 2.0f * current[dev_nz * ix + iz] - next[dev_nz * ix + iz];  // expect: unguarded-thread-index
}

void launchStepKernels(dim3 dimGrid, dim3 dimBlock, int iGpu) {
    stepForward<<<dimGrid, dimBlock>>>(dev_p1[iGpu], dev_p0[iGpu]);
    CUDA_CHECK(cudaGetLastError());
}

void propagate(int nz, int nx, int iGpu) {
    int nblockz = (nz - 2 * FAT + BLOCK_SIZE - 1) / BLOCK_SIZE;
    int nblockx = (nx - 2 * FAT + BLOCK_SIZE - 1) / BLOCK_SIZE;
    dim3 dimGrid(nblockz, nblockx);
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    launchStepKernels(dimGrid, dimBlock, iGpu);
}

int main() {
    const int nz = 203, nx = 153;
    CUDA_CHECK(cudaMemcpyToSymbol(dev_nz, &nz, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dev_p0[0], nz * nx * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dev_p1[0], nz * nx * sizeof(float)));
    CUDA_CHECK(cudaMemset(dev_p0[0], 0, nz * nx * sizeof(float)));
    CUDA_CHECK(cudaMemset(dev_p1[0], 0, nz * nx * sizeof(float)));
    propagate(nz, nx, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(dev_p0[0]));
    CUDA_CHECK(cudaFree(dev_p1[0]));
    return 0;
}
