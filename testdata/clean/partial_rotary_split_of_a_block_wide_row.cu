// Clean: partial rotary embedding. Each block is one row of `E` threads; the first `rot`
// dimensions are rotated and the rest copied as they are. The threads past `rot` are still
// inside the row, which every launch makes `E` threads wide.
#include "cuda_check.h"
#include <cuda_fp16.h>

__global__ void rope_partial(half* out, const half* q, const float* cs, const float* sn, int E,
                             int rot) {
    const half* q_row = q + (size_t)blockIdx.x * E;
    half* out_row = out + (size_t)blockIdx.x * E;
    int e = threadIdx.x;
    if (e < rot) {
        int h = rot / 2;
        int j = e < h ? e : e - h;
        float x1 = __half2float(q_row[j]);
        float x2 = __half2float(q_row[j + h]);
        float c = cs[blockIdx.x * h + j];
        float s = sn[blockIdx.x * h + j];
        out_row[e] = __float2half(e < h ? x1 * c - x2 * s : x2 * c + x1 * s);
    } else {
        out_row[e] = q_row[e];
    }
}

void rope(half* out, const half* q, const float* cs, const float* sn, int tokens, int E, int rot) {
    rope_partial<<<tokens, E>>>(out, q, cs, sn, E, rot);
    CUDA_CHECK(cudaGetLastError());
}
