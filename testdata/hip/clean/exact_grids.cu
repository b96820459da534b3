// Clean: kernels whose launches give exactly one thread per element, written as ML code does:
// one block per row, a block as wide as the problem, a grid that is a floor division. Every
// launch is visible, so no index needs an `i < n` test.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                       \
    do {                                                                       \
        hipError_t err_ = (call);                                             \
        if (err_ != hipSuccess) {                                             \
            fprintf(stderr, "CUDA error %s at %s:%d\n", hipGetErrorString(err_), \
                    __FILE__, __LINE__);                                       \
            exit(EXIT_FAILURE);                                                \
        }                                                                      \
    } while (0)

// One block per row: blockDim.x is 1, so `row` is exactly blockIdx.x < nrows.
__global__ void row_sum(const float* __restrict__ x, float* __restrict__ sums, int ncols) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int col = threadIdx.y; col < ncols; col += blockDim.y) {
        acc += x[row * ncols + col];
    }
    atomicAdd(&sums[row], acc);
}

// The block is as wide as a head: `base + threadIdx.x` covers exactly B * H * head_size values.
__global__ void scale_heads(float* q, float scale) {
    const int base = blockIdx.x * blockDim.x;
    q[base + threadIdx.x] *= scale;
}

// A floor division leaves the tail to the host, never a thread past the end.
__global__ void bias_add(float* y, const float* b, int width) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] += b[i % width];
}

void run(float* d_x, float* d_sums, float* d_q, float* d_y, const float* d_b, int nrows, int ncols,
         int B, int H, int head_size, int n, int width, hipStream_t stream) {
    dim3 block(1, 256, 1);
    dim3 grid(nrows);
    row_sum<<<grid, block, 0, stream>>>(d_x, d_sums, ncols);
    HIP_CHECK(hipGetLastError());
    scale_heads<<<B * H, head_size, 0, stream>>>(d_q, 0.125f);
    HIP_CHECK(hipGetLastError());
    bias_add<<<n / 256, 256, 0, stream>>>(d_y, d_b, width);
    HIP_CHECK(hipGetLastError());
}
