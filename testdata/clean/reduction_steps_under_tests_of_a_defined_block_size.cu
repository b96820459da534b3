// Clean: the reduction steps for larger blocks sit under `#if blockSize >= 512` and
// `#if blockSize >= 256`, with `#define blockSize RED_BSIZE` and `RED_BSIZE` 128 above them in
// the file, so the preprocessor removes them: only `fdata[tid + 64]` and below are compiled,
// inside the 128 floats the launch gives.
#include <cuda_runtime.h>
#include "cuda_check.h"
#define RED_BSIZE 128
#define blockSize RED_BSIZE

__global__ void vDot_kernel(unsigned int n, float* res, const float* a, const float* b)
{
    extern __shared__ float fdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockSize) + tid;
    unsigned int gridSize = gridDim.x * (blockSize);
    fdata[tid] = 0;
    while (i < n) { fdata[tid] += a[i] * b[i]; i += gridSize; }
    __syncthreads();
#if blockSize >= 512
    if (tid < 256) { fdata[tid] += fdata[tid + 256]; } __syncthreads();
#endif
#if blockSize >= 256
    if (tid < 128) { fdata[tid] += fdata[tid + 128]; } __syncthreads();
#endif
#if blockSize >= 128
    if (tid < 64) { fdata[tid] += fdata[tid + 64]; } __syncthreads();
#endif
    for (unsigned int s = 32; s > 0; s >>= 1) {
        if (tid < s) fdata[tid] += fdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) res[blockIdx.x] = fdata[0];
}

void vDot(unsigned int size, float* tmp, const float* a, const float* b)
{
    int nblocs = (size + RED_BSIZE - 1) / RED_BSIZE;
    if (nblocs > 256) nblocs = 256;
    dim3 threads(RED_BSIZE, 1);
    dim3 grid(nblocs, 1);
    vDot_kernel<<<grid, threads, RED_BSIZE * sizeof(float)>>>(size, tmp, a, b);
    CUDA_CHECK(cudaGetLastError());
}
