// Bad: the tasks past the last one leave in whole groups of eight lanes, but the helper's
// shuffles read across the whole warp (a width of 32), so a lane of a running group reads a
// value from a lane that has returned, which is undefined.
#include "cuda_check.h"

__device__ double warp_sum(double x)
{
    x += __shfl_down_sync(0xffffffff, x, 16);
    x += __shfl_down_sync(0xffffffff, x, 8);
    return x;
}

__global__ void task_sums(const double* values, double* sums, int ntasks)
{
    int lane = threadIdx.x & 31;
    int task = (blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)) * 4 + (lane >> 3);
    if (task >= ntasks) return;
    double s = values[task * 8 + (lane & 7)];
    s = warp_sum(s); // expect: partial-warp-shuffle
    if (lane == 0) sums[task] = s;
}

void run(const double* values, double* sums, int ntasks)
{
    task_sums<<<(ntasks + 15) / 16, 128>>>(values, sums, ntasks);
    CUDA_CHECK(cudaGetLastError());
}
