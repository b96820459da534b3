// Bad: the same library with the layers split in blocks of 4 along `z`, rounded up. The kernel
// tests `x` and `y` only, so the threads of the last `z` block past the last layer read and
// write past the images.
#include <cuda_runtime.h>
#include "cuda_check.h"

struct color3 { float x, y, z; };

#ifdef FLIP_ENABLE_CUDA
__global__ static void filter_first_dir(color3 *dst, const color3 *src, const int3 dim)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= dim.x || y >= dim.y) return;
    dst[(z * dim.y + y) * dim.x + x] = src[(z * dim.y + y) * dim.x + x]; // expect: unguarded-thread-index
}
#endif

struct image {
    color3 *data;
    int3 dim;

#ifndef FLIP_ENABLE_CUDA
    static void filter_first_dir(image &src, image &dst) { /* the CPU build */ }
#else
    static void filter_first_dir(image &src, image &dst)
    {
        dim3 block(16, 16, 4);
        dim3 grid((dst.dim.x + 15) / 16, (dst.dim.y + 15) / 16, (dst.dim.z + 3) / 4);
        ::filter_first_dir<<<grid, block>>>(dst.data, src.data, dst.dim);
        CUDA_CHECK(cudaGetLastError());
    }
#endif
};
