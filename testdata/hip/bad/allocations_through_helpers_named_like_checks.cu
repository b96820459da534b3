// Bad: the helper named like a check is handed the buffer, not its address: nothing assigns
// `d_out`, and the kernel writes through a garbage pointer.
#include <hip/hip_runtime.h>
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
    hipMallocSafe(&d_in, n * sizeof(float));
    hipLaunchKernelGGL(fill, (n + 255) / 256, 256, 0, 0, d_in, n);
    hipLaunchKernelGGL(fill, (n + 255) / 256, 256, 0, 0, d_out, n); // expect: uninitialized-device-pointer
    if (hipGetLastError() != hipSuccess) return 1;
    hipFreeSafe(d_in);
    return 0;
}
