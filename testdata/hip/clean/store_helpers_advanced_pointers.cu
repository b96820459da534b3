// Clean: device helpers that store and load through a pointer the kernel advanced, every
// advance under a guard that bounds it (or per block only).
#include <cstdio>
#include <hip/hip_runtime.h>

__device__ __forceinline__ void storeValue(float* dst, float value) { *dst = value; }

__device__ __forceinline__ float loadValue(const float* src) { return src[0]; }

__device__ __forceinline__ void storeAt(float* dst, int k, float value) { dst[k] = value; }

__global__ void fillRows(float* out, int rows, int cols, float value) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows || c >= cols) return;
    float* row = out + r * cols;
    storeValue(row + c, value);
    storeAt(row, c, value);
}

__global__ void copyGuarded(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        storeValue(&out[i], loadValue(in + i));
    }
}

// One row per block: the advance is the block's, the helper's index the thread's own.
__global__ void blockRows(float* out, int cols) {
    float* row = out + blockIdx.x * cols;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) storeAt(row, c, 0.0f);
}

void launch(float* dOut, const float* dIn, float* dCopy, int rows, int cols, int n) {
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    fillRows<<<grid, block>>>(dOut, rows, cols, 1.0f);
    if (hipGetLastError() != hipSuccess) printf("fillRows failed\n");
    copyGuarded<<<(n + 255) / 256, 256>>>(dIn, dCopy, n);
    if (hipGetLastError() != hipSuccess) printf("copyGuarded failed\n");
    blockRows<<<rows, 128>>>(dOut, cols);
    if (hipGetLastError() != hipSuccess) printf("blockRows failed\n");
}
