// Bad (project): the grid is rounded up to whole blocks, but the buffer holds `frames` columns.
#include <cuda_runtime.h>
#include "cuda/min_sum.h"

#define N_NODES 2304
static const size_t BLOCK_SIZE = 128;

int decode(const unsigned int *h_llr, const unsigned int *d_pos, size_t frames)
{
    size_t blocks = (frames + BLOCK_SIZE - 1) / BLOCK_SIZE;
    size_t nodes = N_NODES * frames;
    unsigned int *d_nodes;
    if (cudaMalloc(&d_nodes, nodes * sizeof(unsigned int)) != cudaSuccess) return 1;
    if (cudaMemcpy(d_nodes, h_llr, nodes * sizeof(unsigned int), cudaMemcpyHostToDevice) != cudaSuccess) return 1;
    min_sum_stage<<<blocks, BLOCK_SIZE>>>(d_nodes, d_pos);
    if (cudaGetLastError() != cudaSuccess) return 1;
    return cudaFree(d_nodes) != cudaSuccess;
}
