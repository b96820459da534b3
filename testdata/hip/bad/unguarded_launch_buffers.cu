// Bad: launches that leave threads past the end of what the kernel indexes. A buffer with one
// slot per block (not per thread), a per-thread buffer read one grid stride too far, and a grid
// rounded up on one path of the launcher: each access is reported.
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void writeSlots(float* out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    out[tid] = 1.0f; // expect: unguarded-thread-index
}

__global__ void readAhead(const float* in, float* out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int step = gridDim.x * blockDim.x;
    out[tid] = in[tid + step]; // expect: unguarded-thread-index
}

__global__ void fill(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 0.0f; // expect: unguarded-thread-index
}

void launchAll(int gridSize, int blockSize, int n, bool wide) {
    float* slots = nullptr;
    // one float per block, but every thread writes its own slot
    if (hipMalloc((void**)&slots, gridSize * sizeof(float)) != hipSuccess) return;
    writeSlots<<<gridSize, blockSize>>>(slots);
    if (hipGetLastError() != hipSuccess) printf("writeSlots failed\n");

    float *in = nullptr, *out = nullptr;
    if (hipMalloc((void**)&in, gridSize * blockSize * sizeof(float)) != hipSuccess) return;
    if (hipMalloc((void**)&out, gridSize * blockSize * sizeof(float)) != hipSuccess) return;
    if (hipMemset(in, 0, gridSize * blockSize * sizeof(float)) != hipSuccess) return;
    readAhead<<<gridSize, blockSize>>>(in, out);
    if (hipGetLastError() != hipSuccess) printf("readAhead failed\n");

    float* data = nullptr;
    if (hipMalloc((void**)&data, n * sizeof(float)) != hipSuccess) return;
    int blocks = n / 256;
    if (wide) blocks = (n + 255) / 256; // rounded up on this path only
    fill<<<blocks, 256>>>(data, n);
    if (hipGetLastError() != hipSuccess) printf("fill failed\n");

    hipError_t freed = hipFree(slots);
    freed = hipFree(in);
    freed = hipFree(out);
    freed = hipFree(data);
    if (freed != hipSuccess) printf("free failed\n");
}

// Given no extent, the kernel relies on its launches; this one rounds the grid up.
__global__ void negateAll(float* values)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    values[gid] = -values[gid]; // expect: unguarded-thread-index
}

void negate(float* d_values, int n)
{
    negateAll<<<(n + 255) / 256, 256>>>(d_values);
    if (hipGetLastError() != hipSuccess) printf("negateAll failed\n");
}
