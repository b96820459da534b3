// Bad: the same transpose with the compile-time switch set to the new implementation. The
// branch that is compiled indexes by event with no test against `nevt`, and the grid is rounded
// up, so the threads of the last block past the last event write past `out`.
#include <cuda_runtime.h>
#include "cuda_check.h"

constexpr int npar = 4, np4 = 4, neppM = 4;

template <typename Tin, typename Tout>
__global__ void transpose_momenta(const Tin *in, Tout *out, unsigned int nevt)
{
    constexpr bool kOldImplementation = false;
    if constexpr (kOldImplementation) {
        int pos = blockDim.x * blockIdx.x + threadIdx.x;
        int arrlen = nevt * npar * np4;
        if (pos < arrlen) out[pos] = in[pos];
    } else {
        int ievt = blockDim.x * blockIdx.x + threadIdx.x;
        out[ievt] = in[ievt]; // expect: unguarded-thread-index
    }
}

void transpose(const double *in, double *out, unsigned int nevt)
{
    unsigned int threads = 256, blocks = (nevt + threads - 1) / threads;
    transpose_momenta<double, double><<<blocks, threads>>>(in, out, nevt);
    CUDA_CHECK(cudaGetLastError());
}
