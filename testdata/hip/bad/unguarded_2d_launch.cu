// Bad: a naive 2D matmul whose launch rounds the grid up on both axes, so rows run past M and
// columns past N. The help names both bounds from the launch: `if (row < M && col < N)`.
// --verify confirms it through the guarded twin: the kernel run with that guard gives the
// footprint (37 × 37 elements per matrix), and the kernel as written runs past it.
#include <cstdio>
#include <hip/hip_runtime.h>

// A naive 2D matmul launched with a grid rounded up on both axes: rows run past M, columns past N.
__global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) {
        acc += A[row * K + k] * B[k * N + col]; // expect: unguarded-thread-index, unguarded-thread-index
    }
    C[row * N + col] = acc;
}

void launchMatmul(const float* A, const float* B, float* C) {
    const int M = 100, N = 70, K = 30;
    dim3 block(16, 16);
    dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
    hipLaunchKernelGGL(matmul, grid, block, 0, 0, A, B, C, M, N, K);
    hipError_t status = hipGetLastError();
    if (status != hipSuccess) printf("%s\n", hipGetErrorString(status));
}
