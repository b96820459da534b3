// Lanes return in groups of G, but these shuffles read past the caller's group: a lane of a
// column inside N reads a lane of the next column, which may have returned.
#include "hip_check.h"
#define G 4
#define COLS_PER_BLOCK 32  // 128 threads / G
__global__ void group_sum_wide(const float* A, float* y, int N) {
    int col = blockIdx.x * COLS_PER_BLOCK + threadIdx.x / G;
    if (col >= N) return;
    float t = A[col * G + threadIdx.x % G];
    for (int o = 16; o >= 1; o /= 2)
        t += __shfl_xor_sync(0xffffffff, t, o);  // expect: partial-warp-shuffle
    if (threadIdx.x % G == 0) y[col] = t;
}
__global__ void group_sum_down(const float* A, float* y, int N) {
    int col = blockIdx.x * COLS_PER_BLOCK + threadIdx.x / G;
    if (col >= N) return;
    float t = A[col * G + threadIdx.x % G];
    t += __shfl_down_sync(0xffffffff, t, 1);  // expect: partial-warp-shuffle
    if (threadIdx.x % G == 0) y[col] = t;
}
int main() {
    const int N = 100;
    float *A, *y;
    HIP_CHECK(hipMalloc(&A, N * G * sizeof(float)));
    HIP_CHECK(hipMalloc(&y, N * sizeof(float)));
    HIP_CHECK(hipMemset(A, 0, N * G * sizeof(float)));
    hipLaunchKernelGGL(group_sum_wide, (N + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK, 128, 0, 0, A, y, N);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(group_sum_down, (N + COLS_PER_BLOCK - 1) / COLS_PER_BLOCK, 128, 0, 0, A, y, N);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(A));
    HIP_CHECK(hipFree(y));
    return 0;
}
