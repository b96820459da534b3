// Bad: the full variant skips the row test, and the host launches it whatever the rows are: the
// last tile's threads past `rows` read and write out of bounds. Only that launch is named.
#include "cuda_check.h"

enum class Variant { Full, Predicated };

template <Variant V>
__global__ void gemv_tile(const float* w, const float* x, float* out, int rows, int cols) {
    constexpr bool kFull = V == Variant::Full;
    int row = blockIdx.x * 64 + threadIdx.x; // expect-label: unguarded-thread-index
    if constexpr (!kFull) {
        if (row >= rows) {
            return;
        }
    }
    float acc = 0.f;
    for (int k = 0; k < cols; ++k) {
        acc += w[(long)row * cols + k] * x[k]; // expect: unguarded-thread-index
    }
    out[row] = acc; // expect-label: unguarded-thread-index
}

void gemv(const float* w, const float* x, float* out, int rows, int cols, bool wide) {
    dim3 grid((rows + 63) / 64);
    if (wide) {
        gemv_tile<Variant::Full><<<grid, 64>>>(w, x, out, rows, cols); // expect-label: unguarded-thread-index
    } else {
        gemv_tile<Variant::Predicated><<<grid, 64>>>(w, x, out, rows, cols);
    }
    CUDA_CHECK(cudaGetLastError());
}
