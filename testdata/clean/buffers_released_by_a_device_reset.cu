// Clean: `cudaDeviceReset()` destroys the device's context, and with it every allocation made on
// it, so buffers still allocated when it runs on every path to the end are not leaked (a test
// body that allocates, checks its result, then resets the device).
#include "cuda_check.h"

__global__ void fill(double* y, const double* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0 * x[i];
}

int run_test(double* host_y, const double* host_x, int n)
{
    double *x_d, *y_d;
    CUDA_CHECK(cudaMalloc((void**)&x_d, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void**)&y_d, n * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(x_d, host_x, n * sizeof(double), cudaMemcpyHostToDevice));
    fill<<<(n + 255) / 256, 256>>>(y_d, x_d, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(host_y, y_d, n * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaDeviceReset());
    return 0;
}
