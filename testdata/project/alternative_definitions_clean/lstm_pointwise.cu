#include "pointwise.cuh"

__global__ void pointwise(int batch, int hidden, int heads, const float *x, float *y)
{
    const int row = blockDim.x * blockIdx.x + threadIdx.x;
    const int col = blockDim.y * blockIdx.y + threadIdx.y;
    const int head_dim = hidden / heads;
    const int head_base = (blockDim.z * blockIdx.z + threadIdx.z) * head_dim;
    if (row >= head_dim || col >= batch)
        return;
    const int idx = col * hidden + head_base + row;
    y[idx] = 2.f * x[idx];
}
