// The grid rounds `n + 1` up to whole blocks of `T`, but the buffer is padded by less than a
// block: the last block's threads past `n + T / 2` write beyond it.
#include <cmath>
#include "cuda_check.h"

template <int THREADS>
__global__ void fill_prices(double* prices, double spot, double up, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    prices[t] = spot * pow(up, 2.0 * t - n); // expect: unguarded-thread-index
}

template <int THREADS>
void fill(double spot, double up, int n, double* host) {
    double* prices;
    CUDA_CHECK(cudaMalloc(&prices, (n + THREADS / 2) * sizeof(double)));
    int blocks = std::ceil((n + 1) * 1.0 / THREADS);
    fill_prices<THREADS><<<blocks, THREADS>>>(prices, spot, up, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(host, prices, (n + 1) * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(prices));
}

template void fill<128>(double, double, int, double*);
