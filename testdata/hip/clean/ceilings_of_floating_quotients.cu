// Clean: `ceil` handed a floating-point quotient, or a numerator padded in integers, rounds up;
// a quotient by a constant 1, or of a multiple of the divisor, has nothing to round.
#include "hip_check.h"
#include <cmath>

typedef float real;

__global__ void scale(float* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] *= 2.0f;
    }
}

void run(float* v, int n, real fraction) {
    const int threads = 256;
    dim3 grid(ceil(n / 256.0));
    scale<<<grid, threads>>>(v, n);
    HIP_CHECK(hipGetLastError());
    int blocks = ceil((float)n / threads);
    scale<<<blocks, threads>>>(v, n);
    HIP_CHECK(hipGetLastError());
    int padded = ceil((n + threads - 1) / threads);
    scale<<<padded, threads>>>(v, n);
    HIP_CHECK(hipGetLastError());
    int part = ceil(n * fraction / threads);
    scale<<<part, threads>>>(v, n);
    HIP_CHECK(hipGetLastError());
    int halves = static_cast<int>(std::ceil(static_cast<double>(n) / 2));
    scale<<<halves, 2>>>(v, n);
    HIP_CHECK(hipGetLastError());
}

void run_per_block(float* v, unsigned rows) {
    constexpr unsigned rows_per_block = 1;  // tuned: one row per block on this part
    unsigned blocks = static_cast<unsigned>(std::ceil(rows / rows_per_block));
    scale<<<blocks, 256>>>(v, rows * 256);
    HIP_CHECK(hipGetLastError());
    const int total = 4096;
    scale<<<ceil(total / 256), 256>>>(v, total);
    HIP_CHECK(hipGetLastError());
}
