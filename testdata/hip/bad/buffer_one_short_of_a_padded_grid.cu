// The grid rounds `n + 1` up to whole blocks of `T`, but the buffer is padded by less than a
// block: the last block's threads past `n + T / 2` write beyond it.
#include <cmath>
#include "hip_check.h"

template <int THREADS>
__global__ void fill_prices(double* prices, double spot, double up, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    prices[t] = spot * pow(up, 2.0 * t - n); // expect: unguarded-thread-index
}

template <int THREADS>
void fill(double spot, double up, int n, double* host) {
    double* prices;
    HIP_CHECK(hipMalloc(&prices, (n + THREADS / 2) * sizeof(double)));
    int blocks = std::ceil((n + 1) * 1.0 / THREADS);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(fill_prices<THREADS>), blocks, THREADS, 0, 0, prices, spot, up, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(host, prices, (n + 1) * sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(prices));
}

template void fill<128>(double, double, int, double*);
