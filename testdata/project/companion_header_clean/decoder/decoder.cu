// Clean (project): frames are a multiple of the block (the decoder stops otherwise), and the
// grid is their exact count of blocks.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "cuda/min_sum.h"

#define N_NODES 2304
static const size_t BLOCK_SIZE = 128;

int decode(const unsigned int *h_llr, const unsigned int *d_pos, size_t frames)
{
    if (frames % BLOCK_SIZE != 0) {
        printf("frames must be a multiple of %zu\n", BLOCK_SIZE);
        exit(1);
    }
    size_t blocks = frames / BLOCK_SIZE;
    size_t nodes = N_NODES * frames;
    unsigned int *d_nodes;
    if (cudaMalloc(&d_nodes, nodes * sizeof(unsigned int)) != cudaSuccess) return 1;
    if (cudaMemcpy(d_nodes, h_llr, nodes * sizeof(unsigned int), cudaMemcpyHostToDevice) != cudaSuccess) return 1;
    min_sum_stage<<<blocks, BLOCK_SIZE>>>(d_nodes, d_pos);
    if (cudaGetLastError() != cudaSuccess) return 1;
    return cudaFree(d_nodes) != cudaSuccess;
}
