// Clean: a tile kernel with a full and a predicated variant. The full variant skips the row
// test and is launched only where the rows fill whole tiles; the predicated one tests every
// row. A kernel only ever launched as its checked variant needs no more.
#include "cuda_check.h"

enum class Variant { Full, Predicated };

template <Variant V>
__global__ void gemv_tile(const float* w, const float* x, float* out, int rows, int cols) {
    constexpr bool kFull = V == Variant::Full;
    int row = blockIdx.x * 64 + threadIdx.x;
    if constexpr (!kFull) {
        if (row >= rows) {
            return;
        }
    }
    float acc = 0.f;
    for (int k = 0; k < cols; ++k) {
        acc += w[(long)row * cols + k] * x[k];
    }
    out[row] = acc;
}

template <typename T, bool kCheckRows>
__global__ void scale_rows(T* out, const T* in, int rows) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (kCheckRows && row >= rows) {
        return;
    }
    out[row] = T(2) * in[row];
}

void gemv(const float* w, const float* x, float* out, int rows, int cols) {
    dim3 grid((rows + 63) / 64);
    if (rows % 64 == 0) {
        gemv_tile<Variant::Full><<<grid, 64>>>(w, x, out, rows, cols);
    } else {
        gemv_tile<Variant::Predicated><<<grid, 64>>>(w, x, out, rows, cols);
    }
    CUDA_CHECK(cudaGetLastError());
    scale_rows<float, true><<<(rows + 127) / 128, 128>>>(out, out, rows);
    CUDA_CHECK(cudaGetLastError());
}
