// Clean: each aligned group of eight lanes works on one task, and the tasks past the last one
// leave in whole groups (the exit test reads the lane only as `lane >> 3`). The reduction is a
// device helper whose shuffles have a width of 8, so a lane reads only lanes of its own group,
// which are all still running.
#include "cuda_check.h"

__device__ double sub8_sum(double x)
{
    x += __shfl_down_sync(0xffffffff, x, 4, 8);
    x += __shfl_down_sync(0xffffffff, x, 2, 8);
    x += __shfl_down_sync(0xffffffff, x, 1, 8);
    return x;
}

__global__ void task_sums(const double* values, double* sums, int ntasks)
{
    int lane = threadIdx.x & 31;
    int task = (blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5)) * 4 + (lane >> 3);
    if (task >= ntasks) return;
    double s = values[task * 8 + (lane & 7)];
    s = sub8_sum(s);
    if ((lane & 7) == 0) sums[task] = s;
}

void run(const double* values, double* sums, int ntasks)
{
    task_sums<<<(ntasks + 15) / 16, 128>>>(values, sums, ntasks);
    CUDA_CHECK(cudaGetLastError());
}
