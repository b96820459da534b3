// Clean: a conjugate-gradient port in the style of NAS Parallel Benchmarks. The problem class
// comes from `npbparams.h`, which the build generates (so it is not in the tree); the setup
// function sets the grid once to `NA`, one block per matrix row, and each block reads its row's
// bounds from `rowstr`, which holds `NA + 1` offsets.
#include "npbparams.h"
#include "hip_check.h"

int blocks_per_grid_on_rows;
int threads_per_block_on_rows;

__global__ void rowLengths(const int* rowstr, int* lengths) {
    int j = (blockIdx.x * blockDim.x + threadIdx.x) / blockDim.x;
    int begin = rowstr[j];
    int end = rowstr[j + 1];
    if (threadIdx.x == 0) lengths[j] = end - begin;
}

void setup() {
    threads_per_block_on_rows = 128;
    blocks_per_grid_on_rows = NA;
}

void lengths(const int* rowstr, int* lengths) {
    hipLaunchKernelGGL(rowLengths, blocks_per_grid_on_rows, threads_per_block_on_rows, 0, 0, rowstr, lengths);
    HIP_CHECK(hipGetLastError());
}

int main() {
    setup();
    int *rowstr, *row_lengths;
    HIP_CHECK(hipMalloc(&rowstr, (NA + 1) * sizeof(int)));
    HIP_CHECK(hipMalloc(&row_lengths, NA * sizeof(int)));
    HIP_CHECK(hipMemset(rowstr, 0, (NA + 1) * sizeof(int)));
    lengths(rowstr, row_lengths);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(rowstr));
    HIP_CHECK(hipFree(row_lengths));
    return 0;
}
