// Bad: a lattice solver whose launch parameters come from a helper that fills the grid and
// block through `dim3*` parameters, written `(*gridSize).x = ...`. The grid rounds each side
// up to whole blocks, and 200 is no multiple of 32, so the last column of blocks runs threads
// past the lattice's width, into the next row and, on the last row, past the buffer.
#include "cuda_check.h"

__global__ void diffuse(const float* in, float* out, unsigned width)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * width + x] = 0.5f * in[y * width + x];  // expect: unguarded-thread-index
}

void calculateLaunchParameters(dim3* gridSize, dim3* threadBlockSize, unsigned blockX,
                               unsigned blockY, unsigned width, unsigned height)
{
    (*gridSize).x = (width + blockX - 1) / blockX;
    (*gridSize).y = (height + blockY - 1) / blockY;
    (*gridSize).z = 1;
    (*threadBlockSize).x = blockX;
    (*threadBlockSize).y = blockY;
    (*threadBlockSize).z = 1;
}

int main()
{
    const unsigned width = 200, height = 120;
    float *in, *out;
    CUDA_CHECK(cudaMalloc(&in, width * height * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&out, width * height * sizeof(float)));
    CUDA_CHECK(cudaMemset(in, 0, width * height * sizeof(float)));
    dim3 gridSize, threadBlockSize;
    calculateLaunchParameters(&gridSize, &threadBlockSize, 32, 4, width, height);
    diffuse<<<gridSize, threadBlockSize>>>(in, out, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
    return 0;
}
