// Clean: the reduction of a CUDA textbook. The block count and the block size have defaults
// the command line may replace; the element count is their product, and the grid rounds it up
// by the block size. Whatever the arguments, the grid holds exactly the elements, so the
// kernel's boundary check is taken by no thread and every thread reaches the barriers.
#include <cstdlib>
#include "cuda_check.h"

__global__ void reduceNeighbored(int* g_idata, int* g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int* idata = g_idata + blockIdx.x * blockDim.x;
    if (idx >= n) return;
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if ((tid % (2 * stride)) == 0) idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

int main(int argc, char** argv)
{
    int nblock = 2048;
    int nthread = 512;
    if (argc > 1) nblock = atoi(argv[1]);
    if (argc > 2) nthread = atoi(argv[2]);
    int size = nblock * nthread;
    dim3 block(nthread, 1);
    dim3 grid((size + block.x - 1) / block.x, 1);
    int *d_idata, *d_odata;
    CUDA_CHECK(cudaMalloc(&d_idata, size * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_odata, grid.x * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_idata, 0, size * sizeof(int)));
    reduceNeighbored<<<grid, block>>>(d_idata, d_odata, size);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_idata));
    CUDA_CHECK(cudaFree(d_odata));
    return 0;
}
