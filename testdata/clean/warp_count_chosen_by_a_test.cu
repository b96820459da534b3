// Clean: the number of threads that take part in a reduction is chosen by the head size, 64 or
// 512; both are whole warps, so `threadIdx.x < active` keeps or drops whole warps and the
// full-mask shuffle runs in every lane of the warps that enter.
#include <cuda_runtime.h>

__global__ void rms_finalize(const float* x, float* out, int head_dim)
{
    extern __shared__ float values[];
    __shared__ float warp_sums[16];
    for (int d = threadIdx.x; d < head_dim; d += blockDim.x)
        values[d] = x[blockIdx.x * head_dim + d];
    __syncthreads();
    const int active = head_dim == 128 ? 64 : 512;
    if (threadIdx.x < active) {
        float sum = 0.0f;
        for (int i = threadIdx.x; i < head_dim; i += active) sum += values[i] * values[i];
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = sum;
    }
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = warp_sums[0];
}

void launch(const float* x, float* out, int rows, int head_dim, cudaStream_t stream)
{
    rms_finalize<<<rows, 512, head_dim * sizeof(float), stream>>>(x, out, head_dim);
    if (cudaGetLastError() != cudaSuccess) return;
}
