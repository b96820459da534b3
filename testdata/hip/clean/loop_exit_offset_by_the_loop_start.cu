// Clean: each row of threads walks the outputs from its own row (`i = gout_id`, stepped by the
// block's height), and the exit test is offset by that same row (`i >= nf + gout_id`): it is
// `n * gout_stride >= nf`, the same in every thread, so the whole block reaches the barriers.
#include <hip/hip_runtime.h>

#define IJ_SIZE 8

__global__ void contract_j(double* __restrict__ vj, const double* __restrict__ dm, int nf)
{
    __shared__ double cache[256];
    int gout_id = threadIdx.y;
    int gout_stride = blockDim.y;
    int t_id = threadIdx.y * blockDim.x + threadIdx.x;
    for (int n = 0, i = gout_id; n < IJ_SIZE; ++n, i += gout_stride) {
        if (i >= nf + gout_id) {
            break;
        }
        __syncthreads();
        cache[t_id] = dm[t_id + n * 256];
        __syncthreads();
        if (threadIdx.x == 0 && i < nf) {
            double s = 0.0;
            for (int k = 0; k < 16; ++k) {
                s += cache[threadIdx.y * blockDim.x + k];
            }
            vj[i] += s;
        }
    }
}

void contract(double* vj, const double* dm, int nf)
{
    contract_j<<<1, dim3(16, 16)>>>(vj, dm, nf);
    if (hipGetLastError() != hipSuccess) return;
}
