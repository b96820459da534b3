// Clean: grid-stride loops over a 64-bit count whose launches bound the grid (a fixed grid, a
// grid clamped to a maximum, the grid the occupancy API sizes for the device): the 32-bit
// `blockIdx.x * blockDim.x` stays below the launch's thread count, far from 2^32.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define REDUCE_BLOCKS 128
#define REDUCE_THREADS 256

__global__ void scaleAll(float* x, float a, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        x[i] *= a;
    }
}

__global__ void sumSquares(const float* x, float* partial, size_t n) {
    __shared__ float cache[REDUCE_THREADS];
    float sum = 0.0f;
    for (size_t i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
         i += REDUCE_BLOCKS * REDUCE_THREADS) {
        sum += x[i] * x[i];
    }
    cache[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];
}

__global__ void toHalfRange(const float* in, float* out, long long n) {
    long long stride = blockDim.x * gridDim.x;
    for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = fminf(fmaxf(in[i], -65504.0f), 65504.0f);
    }
}

void run(float* d_x, float* d_y, float* d_partial, size_t n) {
    // a grid of a fixed size
    sumSquares<<<REDUCE_BLOCKS, REDUCE_THREADS>>>(d_x, d_partial, n);
    HIP_CHECK(hipGetLastError());

    // the grid the occupancy API sizes for the device
    int minGridSize = 0;
    int blockSize = 0;
    HIP_CHECK(hipOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, scaleAll));
    dim3 blocks(minGridSize, 1, 1);
    dim3 threads(blockSize, 1, 1);
    scaleAll<<<blocks, threads>>>(d_x, 0.5f, n);
    HIP_CHECK(hipGetLastError());

    // a grid rounded up from the count, then clamped
    int numBlocks = (int)((n + 255) / 256);
    if (numBlocks > 8 * 24) numBlocks = 8 * 24;
    toHalfRange<<<numBlocks, 256>>>(d_x, d_y, (long long)n);
    HIP_CHECK(hipGetLastError());
    toHalfRange<<<std::min(numBlocks, 64), 256>>>(d_y, d_x, (long long)n);
    HIP_CHECK(hipGetLastError());
}
