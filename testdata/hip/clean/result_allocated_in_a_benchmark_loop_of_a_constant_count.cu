// Clean: a sparse-product benchmark driver. The product allocates its result through the
// pointers it is handed, inside a repeat loop whose count is a named constant of one, so the
// loop's first trip always runs and the pointers hold buffers when the result is copied back.
#include <cstdio>
#include "hip_check.h"

static int multiply(int rows, int nnz, int** d_row, int** d_col, double** d_val) {
    hipError_t status = hipMalloc((void**)d_row, (rows + 1) * sizeof(int));
    if (status != hipSuccess) printf("hipMalloc failed: %s\n", hipGetErrorString(status));
    HIP_CHECK(hipMalloc((void**)d_col, nnz * sizeof(int)));
    HIP_CHECK(hipMalloc((void**)d_val, nnz * sizeof(double)));
    HIP_CHECK(hipMemset(*d_row, 0, (rows + 1) * sizeof(int)));
    HIP_CHECK(hipMemset(*d_col, 0, nnz * sizeof(int)));
    HIP_CHECK(hipMemset(*d_val, 0, nnz * sizeof(double)));
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
            HIP_CHECK(hipFree(d_row));
            HIP_CHECK(hipFree(d_col));
            HIP_CHECK(hipFree(d_val));
        }
    }
    if (nnz <= 0) {
        printf("empty product\n");
        return;
    }
    HIP_CHECK(hipMemcpy(h_row, d_row, (rows + 1) * sizeof(int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(h_col, d_col, nnz * sizeof(int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(h_val, d_val, nnz * sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_row));
    HIP_CHECK(hipFree(d_col));
    HIP_CHECK(hipFree(d_val));
}
