// Clean: a launcher called from Fortran takes every size by address and reads each once
// (`int l_cols = *l_cols_in;`). One block per column of the tile and one thread per row: the
// grid and the block are the tile's extents, so no thread lies outside the tile.
#include <cuda_runtime.h>

__global__ void copy_tile(const double *a_dev, double *tile_dev, const int nblk,
                          const int matrixRows, const int l_colx, const int l_row1)
{
    int nb_index = threadIdx.x + 1;   // 1..nb
    int l_col_index = blockIdx.x + 1; // 1..l_cols - l_colx + 1
    tile_dev[nb_index - 1 + (l_colx - 1 + l_col_index - 1) * nblk] =
        a_dev[l_row1 - 1 + nb_index - 1 + (l_colx - 1 + l_col_index - 1) * matrixRows];
}

extern "C" int copy_tile_FromC(const double *a_dev, double *tile_dev, int *nblk_in,
                               int *matrixRows_in, int *l_cols_in, int *l_colx_in,
                               int *l_row1_in, int *nb_in, cudaStream_t my_stream)
{
    int nblk = *nblk_in;
    int matrixRows = *matrixRows_in;
    int l_cols = *l_cols_in;
    int l_colx = *l_colx_in;
    int l_row1 = *l_row1_in;
    int nb = *nb_in;
    dim3 blocks = dim3(l_cols - l_colx + 1, 1, 1);
    dim3 threadsPerBlock = dim3(nb, 1, 1);
    copy_tile<<<blocks, threadsPerBlock, 0, my_stream>>>(a_dev, tile_dev, nblk, matrixRows,
                                                         l_colx, l_row1);
    return cudaGetLastError() != cudaSuccess;
}
