// Bad: a multigrid smoother in the style of NAS Parallel Benchmarks' CUDA ports. The host
// counts the work as one block's threads per row plus one for a corner point, and rounds it up
// by the block's `x`, which no longer divides it: the last block's tail threads return early and
// never reach the barrier its first thread waits at.
#include "cuda_check.h"

#define M 1037

__global__ void smooth(const double* r, double* u, int n1, int n2, int amount_of_work) {
    int check = blockIdx.x * blockDim.x + threadIdx.x;
    if (check >= amount_of_work) return;
    __shared__ double r1[M];
    int i3 = blockIdx.y + 1;
    int i2 = blockIdx.x + 1;
    int i1 = threadIdx.x;
    while (i1 < n1) {
        r1[i1] = r[i3 * n2 * n1 + (i2 - 1) * n1 + i1] + r[i3 * n2 * n1 + (i2 + 1) * n1 + i1];
        i1 += blockDim.x;
    }
    __syncthreads();  // expect: divergent-barrier
    i1 = threadIdx.x + 1;
    while (i1 < n1 - 1) {
        u[i3 * n2 * n1 + i2 * n1 + i1] += 0.5 * r1[i1];
        i1 += blockDim.x;
    }
}

void psinv(const double* r, double* u, int n1, int n2, int n3, int configuredThreads) {
    int threads_per_block = n1 > configuredThreads ? configuredThreads : n1;
    int amount_of_work_x = (n2 - 2) * threads_per_block + 1;
    int amount_of_work_y = n3 - 2;
    dim3 threadsPerBlock(threads_per_block, 1, 1);
    dim3 blocksPerGrid(ceil(double(amount_of_work_x) / double(threadsPerBlock.x)),
                       ceil(double(amount_of_work_y) / double(threadsPerBlock.y)), 1);
    smooth<<<blocksPerGrid, threadsPerBlock>>>(r, u, n1, n2, amount_of_work_x);
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    const int n = 34;
    double *r, *u;
    CUDA_CHECK(cudaMalloc(&r, n * n * n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&u, n * n * n * sizeof(double)));
    CUDA_CHECK(cudaMemset(r, 0, n * n * n * sizeof(double)));
    CUDA_CHECK(cudaMemset(u, 0, n * n * n * sizeof(double)));
    psinv(r, u, n, n, n, 32);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(r));
    CUDA_CHECK(cudaFree(u));
    return 0;
}
