// Clean: a shell index past the last shell is replaced by shell 0 through a flag holding the
// bounds test (`int valid = sh < nbas; if (!valid) sh = 0;`), so every read of the shell table
// is in bounds; only the store is skipped for the threads past the end.
#include <hip/hip_runtime.h>

#define BAS_SLOTS 8
#define ANG_OF 1
#define NPRIM_OF 2

__global__ void recontract_shells(double* __restrict__ norms, const int* __restrict__ bas,
                                  const double* __restrict__ env, int nbas)
{
    int sh = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = sh < nbas;
    if (!valid) {
        sh = 0;
    }
    int l = bas[sh * BAS_SLOTS + ANG_OF];
    int nprim = bas[sh * BAS_SLOTS + NPRIM_OF];
    double s = 0.0;
    for (int p = 0; p < nprim; ++p) {
        s += env[p] * (l + 1);
    }
    if (valid) {
        norms[sh] = s;
    }
}

void recontract(double* norms, const int* bas, const double* env, int nbas)
{
    hipLaunchKernelGGL(recontract_shells, (nbas + 127) / 128, 128, 0, 0, norms, bas, env, nbas);
    if (hipGetLastError() != hipSuccess) return;
}
