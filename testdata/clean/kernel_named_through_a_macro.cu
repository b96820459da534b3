// Clean: the launch names its kernel through an object-like macro (as generated bindings do,
// `#define PACKED_KERNEL kernel_packed`), and its grid is exact: 12 heads of 2 tiles along `x`,
// one row of the batch along `y`, so every thread's element is inside the buffers.
#include <cuda_runtime.h>

#define PACKED_KERNEL kernel_packed

__global__ void kernel_packed(const float* q, float* out, long long stride)
{
    const int lane = threadIdx.x % 32;
    const int head = blockIdx.x / 2;
    const int half = blockIdx.x % 2;
    const long long base = (long long)blockIdx.y * stride + head * 128 + half * 64 + lane * 2;
    out[base] = q[base];
    out[base + 1] = q[base + 1];
}

int main()
{
    const int batch = 4;
    const long long stride = 12 * 128;
    float* d_q = nullptr;
    float* d_out = nullptr;
    if (cudaMalloc(&d_q, batch * stride * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMalloc(&d_out, batch * stride * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(d_q, 0, batch * stride * sizeof(float)) != cudaSuccess) return 1;
    const dim3 grid(12 * 2, batch, 1);
    PACKED_KERNEL<<<grid, 32>>>(d_q, d_out, stride);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaFree(d_q);
    cudaFree(d_out);
    return 0;
}
