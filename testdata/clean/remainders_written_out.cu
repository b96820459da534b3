// Scales interleaved on grid x: `scale = blockIdx.x - SCALES * block` with `block = blockIdx.x /
// SCALES` is `blockIdx.x % SCALES`, below SCALES, and the column is clamped into the row; a flat
// index split into coordinates keeps its remainder with `t -= q * stride`, no larger than the
// guarded index it started from.
#include "cuda_check.h"

#define SCALES 5
#define TILE 30

__global__ void scale_maxima(const float* data, float* out, int width, int pitch, int height)
{
    int block = blockIdx.x / SCALES;
    int scale = blockIdx.x - SCALES * block;
    int x = block * TILE + threadIdx.x;
    int plane = pitch * height;
    int ptr = plane * scale + max(min(x, width - 1), 0);
    float best = 0.0f;
    for (int y = blockIdx.y * 8; y < min(height, blockIdx.y * 8 + 8); y++)
        best = fmaxf(best, data[ptr + y * pitch]);
    out[blockIdx.x * gridDim.y + blockIdx.y] = best;
}

__global__ void permute(const float* in, float* out, const long* stride, const long* new_stride,
                        int ndims, unsigned long size)
{
    unsigned long idx = (unsigned long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= size) return;
    long from = 0;
    long rest = idx;
    for (int d = 0; d < ndims; ++d) {
        long q = rest / new_stride[d];
        rest -= q * new_stride[d];
        from += q * stride[d];
    }
    out[idx] = in[from];
}

cudaError_t run(const float* data, float* maxima, int width, int pitch, int height,
                const float* in, float* out, const long* stride, const long* new_stride,
                int ndims, unsigned long size)
{
    dim3 grid((width + TILE - 1) / TILE * SCALES, (height + 7) / 8);
    scale_maxima<<<grid, TILE>>>(data, maxima, width, pitch, height);
    CUDA_CHECK(cudaGetLastError());
    permute<<<(size + 255) / 256, 256>>>(in, out, stride, new_stride, ndims, size);
    return cudaGetLastError();
}
