// Clean: the warp number goes through an inline-assembly broadcast (`make_warp_uniform`), whose
// value the analysis cannot see; its remainder by 4 still lies in (-4, 4), so the row is below
// 128 in every block, whatever grid the launch computes, and the head's rows are inside the buffers.
#include <cuda_runtime.h>

__device__ __forceinline__ int make_warp_uniform(int x)
{
    int r;
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1F, 0xFFFFFFFF;" : "=r"(r) : "r"(x));
    return r;
}

__global__ void copy_rows(const float* in, float* out, int num_heads)
{
    const int warp = make_warp_uniform(threadIdx.x / 32);
    const int lane = threadIdx.x % 32;
    const int head = (blockIdx.x / 2) % num_heads;
    const int row = (blockIdx.x % 2) * 64 + (warp % 4) * 16 + lane / 2;
    out[head * 128 + row] = in[head * 128 + row];
}

struct Shape
{
    int blocks;
};

int main()
{
    const int num_heads = 8;
    float* d_in = nullptr;
    float* d_out = nullptr;
    if (cudaMalloc(&d_in, num_heads * 128 * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMalloc(&d_out, num_heads * 128 * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(d_in, 0, num_heads * 128 * sizeof(float)) != cudaSuccess) return 1;
    const Shape shape{2 * num_heads};
    copy_rows<<<shape.blocks, 128>>>(d_in, d_out, num_heads);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
