// Bad: the choice meant to cap grid `y` picks the larger value (a `max` where `min` was meant):
// every image of more than 65,535 rows fails the launch.
#include <hip/hip_runtime.h>

#define MAX_BLOCKS 256

__global__ void column_sums(const float* src, int rows, int cols, float* partial)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y;
    if (x < cols && y < rows) atomicAdd(&partial[x], src[y * cols + x]);
}

void sum_columns(const float* src, int rows, int cols, float* partial, hipStream_t stream)
{
    dim3 block(128, 1), grid;
    grid.x = (cols + 127) / 128;
    grid.y = (rows > MAX_BLOCKS) ? rows : MAX_BLOCKS; // expect: invalid-launch-config
    hipLaunchKernelGGL(column_sums, grid, block, 0, stream, src, rows, cols, partial);
    if (hipGetLastError() != hipSuccess) return;
}
