// Bad: the reduction of a CUDA textbook. The element count and the block size have defaults
// the command line may replace, and the grid rounds the count up by the block size. Counts
// that are no multiple of the block (the default is one) leave a partial last block whose
// surplus threads return before the barriers the others wait at.
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
        __syncthreads();  // expect: divergent-barrier
    }
    if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

int main(int argc, char** argv)
{
    int size = 2048 * 512 + 100;
    int nthread = 512;
    if (argc > 1) size = atoi(argv[1]);
    if (argc > 2) nthread = atoi(argv[2]);
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
