// Clean: a momenta transpose that keeps a second implementation behind a compile-time switch,
// as event generators do. `if constexpr (kOldImplementation)` with the switch `true` never
// compiles the `else` branch, so its unguarded accesses are never run; the branch that runs
// tests `pos < arrlen`. A template flag every launch sets to `false` drops its branch too.
#include <cuda_runtime.h>

constexpr int npar = 4, np4 = 4, neppM = 4;

template <typename Tin, typename Tout, bool kDebugCopy>
__global__ void transpose_momenta(const Tin *in, Tout *out, unsigned int nevt)
{
    constexpr bool kOldImplementation = true;
    if constexpr (kOldImplementation) {
        int pos = blockDim.x * blockIdx.x + threadIdx.x;
        int arrlen = nevt * npar * np4;
        if (pos < arrlen) out[pos] = in[pos];
    } else {
        int ievt = blockDim.x * blockIdx.x + threadIdx.x;
        int ipagM = ievt / neppM, ieppM = ievt % neppM;
        for (int ip4 = 0; ip4 < np4; ip4++)
            for (int ipar = 0; ipar < npar; ipar++) {
                int cpos = ipagM * npar * np4 * neppM + ipar * np4 * neppM + ip4 * neppM + ieppM;
                int fpos = ievt * npar * np4 + ipar * np4 + ip4;
                out[cpos] = in[fpos];
            }
    }
    if (kDebugCopy) {
        int ievt = blockDim.x * blockIdx.x + threadIdx.x;
        out[ievt] = in[ievt];
    }
}

void transpose(const double *in, double *out, unsigned int nevt)
{
    unsigned int threads = 256, blocks = (nevt * npar * np4 + threads - 1) / threads;
    transpose_momenta<double, double, false><<<blocks, threads>>>(in, out, nevt);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return;
}
