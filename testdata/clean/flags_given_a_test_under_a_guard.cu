// Matching: a vertex is unmatched when its partner is -1, which is only looked up for valid
// threads; the flag is given the lookup's result under the guard and `false` everywhere else,
// so wherever it holds the guard held too.
#include "cuda_check.h"

__global__ void self_partner(const int* partner, int* out, int n)
{
    int tid = threadIdx.x + blockDim.x * blockIdx.x;
    bool valid_tid = tid < n;
    bool unmatched = false;
    if (valid_tid)
        unmatched = (partner[tid] == -1);
    if (unmatched)
        out[tid] = tid;
}

__global__ void scatter(const int* sum, const int* values, int* out, int threads)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    int value;
    if (id < threads) {
        value = values[id];
    } else {
        value = 0;
    }
    if (value) {
        int idx = sum[id];
        if (idx > 0) out[idx - 1] = id;
    }
}

// one element of 125 points per block; the flag is set under the element test and a data test
// nested in it, so wherever it holds, the element is one of the `nspec`
__global__ void acoustic_kernel(const int* is_acoustic, const float* rho, float* kl, int nspec)
{
    const int ispec = blockIdx.x + blockIdx.y * gridDim.x;
    const int ijk = threadIdx.x;
    const int ijk_ispec = ijk + 125 * ispec;
    __shared__ float s[125];
    int active = 0;
    if (ispec < nspec) {
        if (is_acoustic[ispec]) {
            active = 1;
            s[ijk] = rho[ijk_ispec];
        }
    }
    __syncthreads();
    if (active) kl[ijk_ispec] += rho[ijk_ispec] * s[(ijk + 1) % 125];
}

cudaError_t match(const int* partner, int* out, const int* sum, const int* values, int n)
{
    dim3 grid(n, 2);
    acoustic_kernel<<<grid, 125>>>(values, reinterpret_cast<const float*>(sum), reinterpret_cast<float*>(out), n);
    CUDA_CHECK(cudaGetLastError());
    self_partner<<<(n + 255) / 256, 256>>>(partner, out, n);
    CUDA_CHECK(cudaGetLastError());
    scatter<<<(n + 255) / 256, 256>>>(sum, values, out, n);
    return cudaGetLastError();
}
