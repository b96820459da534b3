// Clean: an image library with a CPU and a CUDA build of one class. The kernels sit under
// `#ifdef FLIP_ENABLE_CUDA`, the CUDA launches in the `#else` of `#ifndef FLIP_ENABLE_CUDA`.
// Read as the CUDA build, the launch gives one block of 32 x 32 threads per tile of an image
// padded to whole tiles and one layer per `z`, so the kernel needs no test of `z`.
#include <cuda_runtime.h>

struct color3 { float x, y, z; };

#ifdef FLIP_ENABLE_CUDA
__global__ static void filter_first_dir(color3 *dst, const color3 *src, const int3 dim)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= dim.x || y >= dim.y) return;
    dst[(z * dim.y + y) * dim.x + x] = src[(z * dim.y + y) * dim.x + x];
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
        dim3 block(32, 32, 1);
        dim3 grid((dst.dim.x + 31) / 32, (dst.dim.y + 31) / 32, dst.dim.z);
        ::filter_first_dir<<<grid, block>>>(dst.data, src.data, dst.dim);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess) return;
    }
#endif
};
