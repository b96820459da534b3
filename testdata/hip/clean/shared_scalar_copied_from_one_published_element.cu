// Clean: thread 0 publishes a task's shape in `__shared__` scalars, a barrier follows, and then
// every thread copies one of them into another shared scalar. All threads read the same element
// after the barrier, so they all store the same value: whichever warp stores last, the scalar
// holds it, and each thread reads back what it stored itself.
#include "hip_check.h"
#define THREADS 256

__global__ void similarity(const int* tasks, const float* in, float* out)
{
    __shared__ int rows, cols;
    __shared__ int height;
    if (threadIdx.x == 0) {
        rows = tasks[2 * blockIdx.x];
        cols = tasks[2 * blockIdx.x + 1];
    }
    __syncthreads();
    height = rows;
    for (int i = threadIdx.x; i < rows * cols; i += THREADS)
        out[blockIdx.x * 4096 + i] = in[blockIdx.x * 4096 + i] * (float)(i % height);
}

void run(const int* tasks, const float* in, float* out, int count)
{
    hipLaunchKernelGGL(similarity, count, THREADS, 0, 0, tasks, in, out);
    HIP_CHECK(hipGetLastError());
}
