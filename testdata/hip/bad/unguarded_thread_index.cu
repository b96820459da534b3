// One finding per unguarded index per kernel: the first access, with the others as labels.
// Bad: global-memory accesses indexed by a global thread index with no upper-bound guard.
#include <cstdio>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

namespace cg = cooperative_groups;

__global__ void scale(float* data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = data[i] * factor; // expect: unguarded-thread-index
}

__global__ void copyDeref(const float* src, float* dst, int n) {
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    float v = *(src + idx); // expect: unguarded-thread-index
    *(dst + idx) = v;
}

__global__ void countBuckets(const int* bucketOf, int* counts, int n) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < n) {
        atomicAdd(&counts[bucketOf[tid] & 15], 1);
    }
    atomicAdd(&counts[tid], 1); // expect: unguarded-thread-index
}

__global__ void matrixScale(float* m, int rows, int cols, float s) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    m[row * cols + col] *= s; // expect: unguarded-thread-index
}

__global__ void backwardDiff(const float* x, float* dx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0) {
        float prev = x[i - 1]; // expect: unguarded-thread-index
        float cur = x[i];
        dx[i] = cur - prev;
    }
}

__global__ void guardTooEarly(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        v = in[i];
    }
    out[i] = v; // expect: unguarded-thread-index
}

__global__ void gridRankWrite(float* out, float value) {
    unsigned long long r = cg::this_grid().thread_rank();
    out[r] = value; // expect: unguarded-thread-index
}

__global__ void sizeTIndex(double* y, const double* x, size_t n) {
    size_t gid = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    y[gid] += 2.0 * x[gid]; // expect: unguarded-thread-index
}

// One block per row is exact, but the second launch rounds the row count up: the finding stands,
// with that launch as a label.
__global__ void clearRows(float* out, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    out[r] = 0.0f; // expect: unguarded-thread-index
}

void launchClearRows(float* out, int rows) {
    hipLaunchKernelGGL(clearRows, rows, 1, 0, 0, out, rows);
    hipError_t first = hipGetLastError();
    hipLaunchKernelGGL(clearRows, (rows + 255) / 256, 256, 0, 0, out, rows);
    hipError_t second = hipGetLastError();
    if (first != hipSuccess || second != hipSuccess) printf("launch failed\n");
}

// An index built by a device function from two unguarded coordinates.
__device__ int flatIndex(int row, int col, int width) {
    return row * width + col;
}

__global__ void helperIndex(float* m, int rows, int cols) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int i = flatIndex(row, col, cols);
    m[i] = 0.0f; // expect: unguarded-thread-index
}

// The write happens inside the helper; the unguarded thread index comes from the kernel.
__device__ void storeAt(float* dst, int i, float v) {
    dst[i] = v;
}

__global__ void helperStore(const float* src, float* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? src[i] : 0.0f;
    storeAt(dst, i, v); // expect: unguarded-thread-index
}

// A loop unrolled by `#pragma unroll` right after `else` (no braces): the directive sits where the
// grammar expects a statement, and the kernel's accesses must still be read.
__global__ void accumulate(float* out, const float* in, int n, bool negate) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (negate)
        out[i] = -in[i]; // expect: unguarded-thread-index
    else
#pragma unroll
        for (int k = 0; k < 4; ++k) out[i] += in[i];
}
