// Bad: each thread loads four floats through a `float4` view, but the guard tests only the
// first of them against `n`: when `n` is not a multiple of 4, the last thread reads and writes
// up to three floats past the end of both buffers.
#include <hip/hip_runtime.h>

__global__ void scale4(const float* in, float* out, int n, float s)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    const int first = v << 2;
    if (first >= n) return;
    const float4* in4 = (const float4*)in;
    float4 x = in4[v]; // expect: out-of-range-access
    x.x *= s; x.y *= s; x.z *= s; x.w *= s;
    float4* out4 = (float4*)out;
    out4[v] = x;
}

int main()
{
    const int n = 1001;
    float* d_in = nullptr;
    float* d_out = nullptr;
    if (hipMalloc(&d_in, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMalloc(&d_out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(d_in, 0, n * sizeof(float)) != hipSuccess) return 1;
    const int vectors = (n + 3) / 4;
    hipLaunchKernelGGL(scale4, (vectors + 255) / 256, 256, 0, 0, d_in, d_out, n, 2.0f);
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    hipFree(d_in);
    hipFree(d_out);
    return 0;
}
