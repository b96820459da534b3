#include <cuda_runtime.h>
#include "pointwise.cuh"

// one block column per head: grid z is exactly `heads`, block z is 1
cudaError_t forward(int batch, int hidden, int heads, const float *x, float *y)
{
    const int head_dim = hidden / heads;
    const dim3 block(32, 8, 1);
    const dim3 grid((head_dim + block.x - 1) / block.x, (batch + block.y - 1) / block.y, heads);
    pointwise<<<grid, block>>>(batch, hidden, heads, x, y);
    return cudaGetLastError();
}
