// Clean: a pyramid loop declares its launch shapes in the loop body, launches a per-block
// histogram over exactly 32 blocks, then reassigns the same `dim3` locals for a 2D kernel
// launched later in the body. Each trip starts from the declarations again, so the histogram
// launch always sees 32 blocks of 256 threads, and `hist` holds one slot per thread.
#include "cuda_check.h"
#define BLOCK_SIZE 256

__global__ void block_histograms(const float* image, int* hist, int size)
{
    __shared__ int counts[BLOCK_SIZE];
    unsigned int tid = threadIdx.x;
    counts[tid] = 0;
    __syncthreads();
    for (unsigned int i = blockIdx.x * BLOCK_SIZE + tid; i < size; i += BLOCK_SIZE * gridDim.x)
        atomicAdd(&counts[(int)image[i] & (BLOCK_SIZE - 1)], 1);
    __syncthreads();
    hist[blockIdx.x * BLOCK_SIZE + tid] = counts[tid];
}

__global__ void threshold(const float* image, unsigned char* mask, int height, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        mask[y * width + x] = image[y * width + x] > 127.0f;
}

void pyramid(const float* const* levels, unsigned char* const* masks, int width, int height)
{
    for (int level = 0; level < 4; level++, width /= 2, height /= 2) {
        dim3 block(BLOCK_SIZE);
        dim3 grid(32);
        int* hist;
        CUDA_CHECK(cudaMalloc((void**)&hist, BLOCK_SIZE * sizeof(int) * 32));
        block_histograms<<<grid, block>>>(levels[level], hist, width * height);
        CUDA_CHECK(cudaGetLastError());

        block = dim3(16, 16);
        grid = dim3((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
        threshold<<<grid, block>>>(levels[level], masks[level], height, width);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaFree(hist));
    }
}
