// Clean: `hipDeviceReset()` destroys the device's context, and with it every allocation made on
// it, so buffers still allocated when it runs on every path to the end are not leaked (a test
// body that allocates, checks its result, then resets the device).
#include "hip_check.h"

__global__ void fill(double* y, const double* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0 * x[i];
}

int run_test(double* host_y, const double* host_x, int n)
{
    double *x_d, *y_d;
    HIP_CHECK(hipMalloc((void**)&x_d, n * sizeof(double)));
    HIP_CHECK(hipMalloc((void**)&y_d, n * sizeof(double)));
    HIP_CHECK(hipMemcpy(x_d, host_x, n * sizeof(double), hipMemcpyHostToDevice));
    fill<<<(n + 255) / 256, 256>>>(y_d, x_d, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(host_y, y_d, n * sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipDeviceReset());
    return 0;
}
