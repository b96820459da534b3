// Clean: a sparse-dense product in the style of graph-learning kernels. Each block covers four
// rows and a tile of 32 columns, the column tile on `y` (`cid = (blockIdx.y << 5) +
// threadIdx.x`), with `ceil(k / 32)` tiles: only the last tile on `y` can pass `k`. The kernel
// tests `cid < k` only there, as one test (`blockIdx.y != gridDim.y - 1 || cid < k`) or as a
// branch of its own.
#include <cuda_runtime.h>

__global__ void spmm_tiles(const int m, const int k, const int *A_indptr, const int *A_indices,
                           const float *B, float *C)
{
    __shared__ int sh[128];
    int sm_offset = (threadIdx.y << 5);
    int cid = (blockIdx.y << 5) + threadIdx.x;
    int rid = blockDim.y * blockIdx.x + threadIdx.y;
    if (rid < m) {
        int lb = A_indptr[rid], hb = A_indptr[rid + 1];
        int ptr = lb + threadIdx.x;
        float acc = 0;
        for (int jj = lb; jj < hb; jj += 32) {
            if (ptr < hb)
                sh[sm_offset + threadIdx.x] = A_indices[ptr] * k;
            __syncwarp();
            ptr += 32;
            for (int kk = 0; kk < 32 && jj + kk < hb; kk++) {
                if (blockIdx.y != gridDim.y - 1 || cid < k)
                    acc += B[sh[sm_offset + kk] + cid];
            }
            __syncwarp();
        }
        if (blockIdx.y != gridDim.y - 1) {
            C[rid * k + cid] = acc;
        } else if (cid < k) {
            C[rid * k + cid] = acc;
        }
    }
}

int spmm(const int *rowptr, const int *colind, const float *B, float *C, int m, int k)
{
    const int tile_k = (k + 31) / 32;
    const int n_block = (m + 3) / 4;
    spmm_tiles<<<dim3(n_block, tile_k, 1), dim3(32, 4, 1)>>>(m, k, rowptr, colind, B, C);
    return cudaGetLastError() != cudaSuccess;
}
