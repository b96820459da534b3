// A matrix-vector product with a group of G lanes per column: the lanes of a column past N
// return together (the test reads threadIdx.x only through threadIdx.x / G), and every
// shuffle reads inside the caller's group of G, so no lane reads one that has returned.
#include "cuda_check.h"
#define G 4
#define COLS_PER_BLOCK 32  // 128 threads / G
__global__ void group_gemv(const float* A, const float* x, float* y, int N, int K) {
    int group_id = threadIdx.x / G;
    int lane_in_group = threadIdx.x % G;
    int col = blockIdx.x * COLS_PER_BLOCK + group_id;
    if (col >= N) return;
    float t = 0.f;
    for (int k = lane_in_group; k < K; k += G) t += A[col * K + k] * x[k];
    for (int o = G / 2; o >= 1; o /= 2)
        t += __shfl_xor_sync(0xffffffff, t, o);
    float first = __shfl_sync(0xffffffff, t, 0, G);
    if (lane_in_group == 0) y[col] = first;
}
int main() {
    const int N = 100, K = 64;
    float *A, *x, *y;
    CUDA_CHECK(cudaMalloc(&A, N * K * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&x, K * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, N * sizeof(float)));
    CUDA_CHECK(cudaMemset(A, 0, N * K * sizeof(float)));
    CUDA_CHECK(cudaMemset(x, 0, K * sizeof(float)));
    group_gemv<<<(N + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK, 128>>>(A, x, y, N, K);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(A));
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    return 0;
}
