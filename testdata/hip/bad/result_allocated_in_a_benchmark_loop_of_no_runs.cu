// Bad: the same sparse-product benchmark driver, built with its repeat count set to zero: the
// loop that allocates the result never runs, and the copy back reads a garbage address.
#include <cstdio>
#include "hip_check.h"

#define REPEAT 0

static int multiply(int rows, int** d_row) {
    hipError_t status = hipMalloc((void**)d_row, (rows + 1) * sizeof(int));
    if (status != hipSuccess) printf("hipMalloc failed: %s\n", hipGetErrorString(status));
    HIP_CHECK(hipMemset(*d_row, 0, (rows + 1) * sizeof(int)));
    return 0;
}

void benchmark(int rows, int* h_row) {
    int* d_row;
    for (int i = 0; i < REPEAT; i++) {
        multiply(rows, &d_row);
        if (i != REPEAT - 1) HIP_CHECK(hipFree(d_row));
    }
    if (rows <= 0) {
        printf("empty product\n");
        return;
    }
    HIP_CHECK(hipMemcpy(h_row, d_row, (rows + 1) * sizeof(int), hipMemcpyDeviceToHost)); // expect: uninitialized-device-pointer
    HIP_CHECK(hipFree(d_row));
}
