// Bad: the offsets are allocated with one entry per block row, so the thread at `block_rows`
// that `i <= block_rows` lets through writes one past the end.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void compress_row_offsets(const int *csr_offsets, int *bsr_offsets, int block_rows,
                                     int rows_per_block)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i <= block_rows)
        bsr_offsets[i] = csr_offsets[i * rows_per_block] / rows_per_block; // expect: out-of-range-access
}

void build_block_rows(const int *d_csr_offsets, int block_rows, int rows_per_block)
{
    int *d_bsr_offsets;
    HIP_CHECK(hipMalloc(&d_bsr_offsets, block_rows * sizeof(int)));
    compress_row_offsets<<<(block_rows + 255) / 256, 256>>>(d_csr_offsets, d_bsr_offsets, block_rows,
                                                           rows_per_block);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_bsr_offsets));
}
