// Bad: the element's address is kept in a local pointer and the store goes through it; the
// store is where the memory is touched, and nothing bounds the row there.
#include <cuda_runtime.h>
#include "cuda_check.h"

// pointed once after an empty declaration, then written with no test of the row
__global__ void store_row_sums(const int *a, int *c, int m, int ld)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int *ptr_c = nullptr;
    ptr_c = &c[row * ld];
    int sum = a[0] + a[1];
    *ptr_c = sum; // expect: unguarded-thread-index
}

// declared pointing at the element, written with no test of the row
__global__ void store_row_heads(const int *a, int *c, int m, int ld)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int *head = &c[row * ld];
    *head = a[0]; // expect: unguarded-thread-index
}

void launch(const int *a, int *c, int m, int ld)
{
    store_row_sums<<<(m + 127) / 128, 128>>>(a, c, m, ld);
    CUDA_CHECK(cudaGetLastError());
    store_row_heads<<<(m + 127) / 128, 128>>>(a, c, m, ld);
    CUDA_CHECK(cudaGetLastError());
}
