// Bad: every thread copies its own element of a shared table into one `__shared__` scalar.
// The threads store different values with no barrier between them, so the scalar keeps
// whichever warp stored last, and each thread may read back another thread's value.
#include "cuda_check.h"
#define THREADS 256

__global__ void similarity(const int* sizes, float* out)
{
    __shared__ int counts[THREADS];
    __shared__ int height;
    counts[threadIdx.x] = sizes[blockIdx.x * THREADS + threadIdx.x];
    __syncthreads();
    height = counts[threadIdx.x]; // expect: shared-memory-race
    out[blockIdx.x * THREADS + threadIdx.x] = (float)height;
}

void run(const int* sizes, float* out, int count)
{
    similarity<<<count, THREADS>>>(sizes, out);
    CUDA_CHECK(cudaGetLastError());
}
