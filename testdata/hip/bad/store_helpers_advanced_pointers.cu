// Bad: stores and loads made by small device helpers through a pointer the kernel advanced by a
// thread index that nothing bounds: the advance is the access's index.
#include <cstdio>
#include <hip/hip_runtime.h>

__device__ __forceinline__ void storeValue(float* dst, float value) { *dst = value; }

__device__ __forceinline__ float loadValue(const float* src) { return src[0]; }

// The column is guarded, the row is not: `row` runs past the last one.
__global__ void fillRows(float* out, int rows, int cols, float value) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float* row = out + r * cols;
    storeValue(row + c, value); // expect: unguarded-thread-index
}

__global__ void shift(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = loadValue(in + i); // expect: unguarded-thread-index
    if (i < n) out[i] = v;
}

void launch(float* dOut, const float* dIn, float* dShifted, int rows, int cols, int n) {
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    hipLaunchKernelGGL(fillRows, grid, block, 0, 0, dOut, rows, cols, 1.0f);
    if (hipGetLastError() != hipSuccess) printf("fillRows failed\n");
    hipLaunchKernelGGL(shift, (n + 255) / 256, 256, 0, 0, dIn, dShifted, n);
    if (hipGetLastError() != hipSuccess) printf("shift failed\n");
}
