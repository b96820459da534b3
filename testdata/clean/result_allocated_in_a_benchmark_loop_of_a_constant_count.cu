// Clean: a sparse-product benchmark driver. The product allocates its result through the
// pointers it is handed, inside a repeat loop whose count is a named constant of one, so the
// loop's first trip always runs and the pointers hold buffers when the result is copied back.
#include <cstdio>
#include "cuda_check.h"

static int multiply(int rows, int nnz, int** d_row, int** d_col, double** d_val) {
    cudaError_t status = cudaMalloc((void**)d_row, (rows + 1) * sizeof(int));
    if (status != cudaSuccess) printf("cudaMalloc failed: %s\n", cudaGetErrorString(status));
    CUDA_CHECK(cudaMalloc((void**)d_col, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc((void**)d_val, nnz * sizeof(double)));
    CUDA_CHECK(cudaMemset(*d_row, 0, (rows + 1) * sizeof(int)));
    CUDA_CHECK(cudaMemset(*d_col, 0, nnz * sizeof(int)));
    CUDA_CHECK(cudaMemset(*d_val, 0, nnz * sizeof(double)));
    return 0;
}

void benchmark(int rows, int nnz, int* h_row, int* h_col, double* h_val) {
    const int REPEAT = 1;
    int* d_row;
    int* d_col;
    double* d_val;
    for (int i = 0; i < REPEAT; i++) {
        multiply(rows, nnz, &d_row, &d_col, &d_val);
        if (i != REPEAT - 1) {
            CUDA_CHECK(cudaFree(d_row));
            CUDA_CHECK(cudaFree(d_col));
            CUDA_CHECK(cudaFree(d_val));
        }
    }
    if (nnz <= 0) {
        printf("empty product\n");
        return;
    }
    CUDA_CHECK(cudaMemcpy(h_row, d_row, (rows + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_col, d_col, nnz * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h_val, d_val, nnz * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_row));
    CUDA_CHECK(cudaFree(d_col));
    CUDA_CHECK(cudaFree(d_val));
}
