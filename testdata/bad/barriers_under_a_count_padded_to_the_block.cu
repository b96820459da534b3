// Bad: the launcher pads the point count up to a multiple of the block (`n + (B - n % B)`) and
// launches one thread per padded item; the padding threads of the last block skip the branch on
// the real count, and the barrier inside it waits for them.
#include <cuda_runtime.h>

#define THREADS_PER_BLOCK 256

__global__ void compute_cost(const float* coords, float* cost, int num, int dim, long x)
{
    extern __shared__ float center[];
    const int point = blockDim.x * blockIdx.x + threadIdx.x;
    if (point < num) {
        if (threadIdx.x == 0)
            for (int i = 0; i < dim; i++) center[i] = coords[i * num + x];
        __syncthreads(); // expect: divergent-barrier
        float distance = 0.0f;
        for (int i = 0; i < dim; i++) {
            const float d = coords[i * num + point] - center[i];
            distance += d * d;
        }
        cost[point] = distance;
    }
}

void costs(const float* coords, float* cost, int num, int dim, long x)
{
    int work_items = num;
    if (work_items % THREADS_PER_BLOCK != 0)
        work_items = work_items + (THREADS_PER_BLOCK - work_items % THREADS_PER_BLOCK);
    compute_cost<<<work_items / THREADS_PER_BLOCK, THREADS_PER_BLOCK, dim * sizeof(float)>>>(
        coords, cost, num, dim, x);
    if (cudaGetLastError() != cudaSuccess) return;
}
