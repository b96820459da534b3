// Clean: forming `&c[row * ld]` touches no memory; the store through the pointer is guarded
// by the row test, as in batched integer matmul epilogues.
#include <cuda_runtime.h>
#include "cuda_check.h"

__global__ void store_row_sums(const int *a, int *c, int m, int ld)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int *ptr_c = nullptr;
    ptr_c = &c[row * ld];
    int sum = 0;
    for (int k = 0; k < 4; ++k)
        sum += a[k];
    if (row < m)
        *ptr_c = sum;
}

__global__ void store_row_heads(const int *a, int *c, int m, int ld)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int *head = &c[row * ld];
    if (row >= m)
        return;
    *head = a[0];
}

void launch(const int *a, int *c, int m, int ld)
{
    store_row_sums<<<(m + 127) / 128, 128>>>(a, c, m, ld);
    CUDA_CHECK(cudaGetLastError());
    store_row_heads<<<(m + 127) / 128, 128>>>(a, c, m, ld);
    CUDA_CHECK(cudaGetLastError());
}
