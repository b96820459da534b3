// Bad: the exit test compares the row's own position with the count (`i >= nf`), so the rows
// of threads leave on different trips when `nf` is not a multiple of the block's height, and
// the rows still in the loop wait at a barrier the others never reach.
#include <cuda_runtime.h>

#define IJ_SIZE 8

__global__ void contract_j(double* __restrict__ vj, const double* __restrict__ dm, int nf)
{
    __shared__ double cache[256];
    int gout_id = threadIdx.y;
    int gout_stride = blockDim.y;
    int t_id = threadIdx.y * blockDim.x + threadIdx.x;
    for (int n = 0, i = gout_id; n < IJ_SIZE; ++n, i += gout_stride) {
        if (i >= nf) {
            break;
        }
        __syncthreads(); // expect: divergent-barrier
        cache[t_id] = dm[t_id + n * 256];
        __syncthreads();
        if (threadIdx.x == 0) {
            vj[i] += cache[threadIdx.y * blockDim.x];
        }
    }
}

void contract(double* vj, const double* dm, int nf)
{
    contract_j<<<1, dim3(16, 16)>>>(vj, dm, nf);
    if (cudaGetLastError() != cudaSuccess) return;
}
