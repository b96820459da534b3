// Bad: the same sparse-product benchmark driver, built with its repeat count set to zero: the
// loop that allocates the result never runs, and the copy back reads a garbage address.
#include <cstdio>
#include "cuda_check.h"

#define REPEAT 0

static int multiply(int rows, int** d_row) {
    cudaError_t status = cudaMalloc((void**)d_row, (rows + 1) * sizeof(int));
    if (status != cudaSuccess) printf("cudaMalloc failed: %s\n", cudaGetErrorString(status));
    CUDA_CHECK(cudaMemset(*d_row, 0, (rows + 1) * sizeof(int)));
    return 0;
}

void benchmark(int rows, int* h_row) {
    int* d_row;
    for (int i = 0; i < REPEAT; i++) {
        multiply(rows, &d_row);
        if (i != REPEAT - 1) CUDA_CHECK(cudaFree(d_row));
    }
    if (rows <= 0) {
        printf("empty product\n");
        return;
    }
    CUDA_CHECK(cudaMemcpy(h_row, d_row, (rows + 1) * sizeof(int), cudaMemcpyDeviceToHost)); // expect: uninitialized-device-pointer
    CUDA_CHECK(cudaFree(d_row));
}
