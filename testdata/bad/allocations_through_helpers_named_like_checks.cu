// Bad: the helper named like a check is handed the buffer, not its address: nothing assigns
// `d_out`, and the kernel writes through a garbage pointer.
#include <cuda_runtime.h>
#include "util.h"

__global__ void fill(float* p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

int run(int n)
{
    float* d_in = nullptr;
    float* d_out;
    cudaMallocSafe(&d_in, n * sizeof(float));
    fill<<<(n + 255) / 256, 256>>>(d_in, n);
    fill<<<(n + 255) / 256, 256>>>(d_out, n); // expect: uninitialized-device-pointer
    if (cudaGetLastError() != cudaSuccess) return 1;
    cudaFreeSafe(d_in);
    return 0;
}
