// Bad: a block-uniform value in a `__shared__` scalar that not every thread stored before its
// own read. Only thread 0 stores the tile's start, and the others read it with no barrier in
// between, so they may see the value from before the store; and a value that differs from warp
// to warp, stored by every thread, leaves whichever warp stored last.
#include <hip/hip_runtime.h>
#define BLOCK_DIM 16

__global__ void rows(const float* in, int width, float* out)
{
    __shared__ int begin;
    __shared__ float tile[BLOCK_DIM][BLOCK_DIM];
    if (threadIdx.x == 0 && threadIdx.y == 0) begin = BLOCK_DIM * blockIdx.y * width;
    tile[threadIdx.y][threadIdx.x] = in[begin + threadIdx.y * width + threadIdx.x]; // expect: shared-memory-race
    __syncthreads();
    out[begin + threadIdx.x * width + threadIdx.y] = tile[threadIdx.y][threadIdx.x];
}

__global__ void warps(const float* in, float* out)
{
    __shared__ int offset;
    offset = BLOCK_DIM * blockIdx.x + threadIdx.x / 32; // expect: shared-memory-race
    out[blockIdx.x * 256 + threadIdx.x] = in[offset];
}

void run(const float* in, int width, float* out)
{
    hipLaunchKernelGGL(rows, dim3(width / BLOCK_DIM, width / BLOCK_DIM), dim3(BLOCK_DIM, BLOCK_DIM), 0, 0, in, width, out);
    if (hipGetLastError() != hipSuccess) return;
    hipLaunchKernelGGL(warps, width, 256, 0, 0, in, out);
    if (hipGetLastError() != hipSuccess) return;
}
