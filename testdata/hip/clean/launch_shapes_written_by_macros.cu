// Clean: a project's macros write a launch's grid and block together, so the chevrons hold the
// grid and block in one macro use, then the dynamic shared bytes and the stream:
// `k<<<DIM(n, 256), 0, stream>>>`. The `0` is the shared memory, not the block, and `DIM2` is
// one use of `DIM3`, which writes both shapes.
#include "hip_check.h"

#define NG1D 128
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define DIM(n, nb) MIN(((n) + (nb) - 1) / (nb), NG1D), MIN((n), (nb))
#define DIM3(nx, ny, nb, nbz) dim3(MIN(((nx) + (nb) - 1) / (nb), NG1D), MIN(((ny) + (nb) - 1) / (nb), NG1D)), dim3(MIN((nx), (nb)), MIN((ny), (nb)))
#define DIM2(nx, ny, nb) DIM3(nx, ny, nb, 1)

__global__ void scale(float* p, int n, float alpha)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        p[i] *= alpha;
}

__global__ void add2d(float* p, int nx, int ny)
{
    for (int iy = blockIdx.y * blockDim.y + threadIdx.y; iy < ny; iy += blockDim.y * gridDim.y)
        for (int ix = blockIdx.x * blockDim.x + threadIdx.x; ix < nx; ix += blockDim.x * gridDim.x)
            p[iy * nx + ix] += 1.0f;
}

void run(float* p, int n, int nx, int ny, hipStream_t stream)
{
    scale<<<DIM(n, 256), 0, stream>>>(p, n, 2.0f);
    HIP_CHECK(hipGetLastError());
    add2d<<<DIM2(nx, ny, 16), 0, stream>>>(p, nx, ny);
    HIP_CHECK(hipGetLastError());
}
