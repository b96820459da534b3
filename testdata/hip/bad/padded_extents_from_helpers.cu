// Bad: the row length is padded by a helper to a multiple of 24 (`pad(kx, 24)`), which is no
// multiple of the warp: the early return on the padded length splits the last warp, and the
// reduction after it reads lanes that have left.
#include <hip/hip_runtime.h>

#define BLOCK 256

constexpr int pad(int n, int p) {
    if (p == 0) return n; // no padding asked for
    return ((n + p - 1) / p) * p;
}

__device__ float warp_max(float v) {
    for (int m = 16; m > 0; m >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m, 32));
    return v;
}

__global__ void quantize_rows(const float* x, float* y, int kx, int kx_padded) {
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (ix >= kx_padded) return;
    const int iy = blockIdx.y;
    float v = ix < kx ? x[iy * kx + ix] : 0.0f;
    v = warp_max(fabsf(v)); // expect: partial-warp-shuffle
    y[iy * kx_padded + ix] = v;
}

int quantize(const float* x, float* y, int kx, int rows, hipStream_t stream) {
    if (rows > 65535) return 1;
    const int kx_padded = pad(kx, 24);
    dim3 grid((kx_padded + BLOCK - 1) / BLOCK, rows);
    hipLaunchKernelGGL(quantize_rows, grid, BLOCK, 0, stream, x, y, kx, kx_padded);
    return hipGetLastError() != hipSuccess;
}
