// Bad: the same product with the tests of the wrong block: the column tile is on `y`, but the
// read tests whether the block is the last on `x`, and the write skips the first tile on `y`
// instead of the last. In the last column tile, threads past `k` read and write out of bounds.
#include <hip/hip_runtime.h>
#include "hip_check.h"

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
                if (blockIdx.x != gridDim.x - 1 || cid < k)
                    acc += B[sh[sm_offset + kk] + cid]; // expect: unguarded-thread-index
            }
            __syncwarp();
        }
        if (blockIdx.y != 0) {
            C[rid * k + cid] = acc; // reported with the read, through `cid`
        } else if (cid < k) {
            C[rid * k + cid] = acc;
        }
    }
}

void spmm(const int *rowptr, const int *colind, const float *B, float *C, int m, int k)
{
    const int tile_k = (k + 31) / 32;
    const int n_block = (m + 3) / 4;
    hipLaunchKernelGGL(spmm_tiles, dim3(n_block, tile_k, 1), dim3(32, 4, 1), 0, 0, m, k, rowptr, colind, B, C);
    HIP_CHECK(hipGetLastError());
}
