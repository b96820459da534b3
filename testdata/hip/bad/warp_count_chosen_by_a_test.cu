// Bad: the number of threads that take part in a reduction is chosen by the head size, 64 or
// 48; 48 ends in the middle of the second warp, so its lanes 16-31 skip the full-mask shuffle
// that lanes 0-15 run, and those read values of lanes that never took part.
#include <hip/hip_runtime.h>

__global__ void rms_finalize(const float* x, float* out, int head_dim)
{
    extern __shared__ float values[];
    __shared__ float warp_sums[16];
    for (int d = threadIdx.x; d < head_dim; d += blockDim.x)
        values[d] = x[blockIdx.x * head_dim + d];
    __syncthreads();
    const int active = head_dim == 128 ? 64 : 48;
    if (threadIdx.x < active) {
        float sum = 0.0f;
        for (int i = threadIdx.x; i < head_dim; i += active) sum += values[i] * values[i];
        for (int offset = 16; offset > 0; offset >>= 1)
            sum += __shfl_down_sync(0xffffffffu, sum, offset); // expect: partial-warp-shuffle
        if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = sum;
    }
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = warp_sums[0];
}

void launch(const float* x, float* out, int rows, int head_dim, hipStream_t stream)
{
    rms_finalize<<<rows, 512, head_dim * sizeof(float), stream>>>(x, out, head_dim);
    if (hipGetLastError() != hipSuccess) return;
}
