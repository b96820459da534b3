// The buffers are padded by one block instead of guarded: a grid of `ceil((n + 1) / T)` blocks
// of `T` threads has at most `n + T` threads, and each buffer holds `n + T` doubles, whatever
// the block width `T` the template is built with.
#include <cmath>
#include "hip_check.h"

template <int THREADS>
__global__ void fill_prices(double* prices, double spot, double up, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    prices[t] = spot * pow(up, 2.0 * t - n);
}

template <int THREADS>
void fill(double spot, double up, int n, double* host) {
    double* prices;
    HIP_CHECK(hipMalloc(&prices, (n + THREADS) * sizeof(double)));
    int blocks = std::ceil((n + 1) * 1.0 / THREADS);
    fill_prices<THREADS><<<blocks, THREADS>>>(prices, spot, up, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(host, prices, (n + 1) * sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(prices));
}

template void fill<128>(double, double, int, double*);
template void fill<256>(double, double, int, double*);
