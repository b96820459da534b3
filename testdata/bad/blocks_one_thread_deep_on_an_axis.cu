// Bad: a multigrid boundary exchange in the style of NAS Parallel Benchmarks' CUDA ports. Each
// axis gets its own launch; the function reuses its locals. The second launch makes its blocks
// two threads deep, so the grid's `y`, rounded up over an odd plane count, runs a row of
// threads past the last plane, and the kernel tests only `x`.
#include "cuda_check.h"

__global__ void exchangeAxis1(double* u, int n1, int n2, int n3) {
    int i3 = blockIdx.y * blockDim.y + threadIdx.y + 1;
    int i2 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (i2 >= n2 - 1) return;
    u[i3 * n2 * n1 + i2 * n1 + 0] = u[i3 * n2 * n1 + i2 * n1 + n1 - 2];
    u[i3 * n2 * n1 + i2 * n1 + n1 - 1] = u[i3 * n2 * n1 + i2 * n1 + 1];
}

__global__ void exchangeAxis3(double* u, int n1, int n2, int n3) {
    int i2 = blockIdx.y * blockDim.y + threadIdx.y;
    int i1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (i1 >= n1) return;
    u[(n3 - 1) * n2 * n1 + i2 * n1 + i1] = u[1 * n2 * n1 + i2 * n1 + i1];  // expect: unguarded-thread-index
    u[0 * n2 * n1 + i2 * n1 + i1] = u[(n3 - 2) * n2 * n1 + i2 * n1 + i1];
}

void exchange(double* u, int n1, int n2, int n3, int threadsPerBlockConfigured) {
    int threads_per_block_x = threadsPerBlockConfigured;
    int threads_per_block_y = 1;
    int amount_of_work_x = n2 - 2;
    int amount_of_work_y = n3 - 2;
    dim3 threadsPerBlock(threads_per_block_x, threads_per_block_y, 1);
    dim3 blocksPerGrid(ceil(double(amount_of_work_x) / double(threadsPerBlock.x)),
                       ceil(double(amount_of_work_y) / double(threadsPerBlock.y)), 1);
    exchangeAxis1<<<blocksPerGrid, threadsPerBlock>>>(u, n1, n2, n3);
    CUDA_CHECK(cudaGetLastError());

    threads_per_block_x = threadsPerBlockConfigured;
    threads_per_block_y = 2;
    amount_of_work_x = n1;
    amount_of_work_y = n2;
    threadsPerBlock.x = threads_per_block_x;
    threadsPerBlock.y = threads_per_block_y;
    blocksPerGrid.x = ceil(double(amount_of_work_x) / double(threadsPerBlock.x));
    blocksPerGrid.y = ceil(double(amount_of_work_y) / double(threadsPerBlock.y));
    exchangeAxis3<<<blocksPerGrid, threadsPerBlock>>>(u, n1, n2, n3);
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    const int n = 33;
    double* u;
    CUDA_CHECK(cudaMalloc(&u, n * n * n * sizeof(double)));
    CUDA_CHECK(cudaMemset(u, 0, n * n * n * sizeof(double)));
    exchange(u, n, n, n, 32);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(u));
    return 0;
}
