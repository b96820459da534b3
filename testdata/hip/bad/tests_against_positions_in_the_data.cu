// Bad: the window's upper side admits the size itself (`t <= n`), so the thread at `n` copies one
// element past both buffers; and a test against the size the kernel is given (`t >= n`), not a
// place in the data, runs its branch only for threads past the end.
#include <hip/hip_runtime.h>

__global__ void copy_upper_half(const float* in, float* out, int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int first = n / 2;
    if (t >= first && t <= n) out[t] = in[t]; // expect: out-of-range-access, out-of-range-access
}

__global__ void clear_tail(float* values, const unsigned* heads, int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int head = heads[blockIdx.x];
    if (t > head && t < n) values[t] += 1.0f;
    if (t >= n) values[t] = 0.0f; // expect: out-of-range-access
}

void run(const float* in, float* out, float* values, const unsigned* heads, int n)
{
    hipLaunchKernelGGL(copy_upper_half, (n + 255) / 256, 256, 0, 0, in, out, n);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(clear_tail, (n + 255) / 256, 256, 0, 0, values, heads, n);
    if (hipGetLastError() != hipSuccess) return;
}
