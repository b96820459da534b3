// Clean: the grid is rounded up by a project macro whose name does not say so (`DIVIDE`), and the
// caller requires the column count to be a multiple of the block, so the grid is exact and every
// thread has a column.
#include <cassert>
#include <hip/hip_runtime.h>
#include "hip_check.h"

#define DIVIDE(x, size) (((x) + (size) - 1) / (size))
#define BLOCK_N 128

__global__ void column_sums(const float* mat, float* sums, int height, int width)
{
    const int w = BLOCK_N * blockIdx.x + threadIdx.x;
    float r = 0.0f;
    for (int h = 0; h < height; ++h) r += mat[h * width + w];
    sums[w] = r;
}

static void launch_column_sums(const float* mat, float* sums, int size_k, int size_n, hipStream_t stream)
{
    hipLaunchKernelGGL(column_sums, DIVIDE(size_n, BLOCK_N), BLOCK_N, 0, stream, mat, sums, size_k, size_n);
    HIP_CHECK(hipGetLastError());
}

void gemm_prologue(const float* mat, float* sums, int k, int n, hipStream_t stream)
{
    assert(n % BLOCK_N == 0);
    launch_column_sums(mat, sums, k, n, stream);
}
