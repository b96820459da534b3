// Clean: bound tests kept in boolean flags, indices computed by __device__ helpers from guarded
// coordinates, helpers that guard their own accesses, and block-strided loops whose limit is
// rounded to a multiple of the block size, so every thread reaches the barriers inside.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

#define BLOCK 256

__device__ __forceinline__ int globalId() {
    return blockIdx.x * blockDim.x + threadIdx.x;
}

__host__ __device__ inline int flatIndex(int row, int col, int width) {
    return row * width + col;
}

__host__ __device__ inline int roundDown(int value, int multiple) {
    return (value / multiple) * multiple;
}

__device__ inline int wrapIndex(int i, int n) {
    return i % n;
}

// Guards its own write: callers may pass any index.
__device__ void storeIfInside(float* dst, int i, int n, float v) {
    const bool inside = i < n;
    if (!inside) {
        return;
    }
    dst[i] = v;
}

__device__ float loadAt(const float* src, int i) {
    return src[i];
}

__device__ void writeAt(float* dst, int i, float v) {
    dst[i] = v;
}

__global__ void scaleFlagged(const float* in, float* out, float s, int n) {
    int i = globalId();
    const bool valid = i < n;
    if (valid) {
        out[i] = in[i] * s;
    }
    if (i < n) {
        writeAt(out, i, out[i] + 1.0f);
    }
}

__global__ void copyEarlyExit(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool outside = i >= n;
    if (outside) {
        return;
    }
    out[i] = loadAt(in, i);
}

__global__ void clampedRead(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < n;
    float v = in[valid ? i : n - 1];
    if (valid) {
        out[i] = v;
    }
}

__global__ void transposeTile(const float* in, float* out, int rows, int cols) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    bool inBounds = (row < rows) && (col < cols);
    if (inBounds) {
        out[flatIndex(col, row, rows)] = in[flatIndex(row, col, cols)];
    }
}

__global__ void ringWrite(float* ring, int ringSize, float v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    ring[wrapIndex(i, ringSize)] = v;
}

__global__ void guardedByHelper(float* out, int n) {
    int i = globalId();
    storeIfInside(out, i, n, 1.0f);
}

// Full tiles with barriers, then the tail without: every thread runs the same number of tiles.
__global__ void blockSum(const float* in, float* sums, int n) {
    __shared__ float tile[BLOCK];
    float acc = 0.0f;
    const int full = roundDown(n, blockDim.x);
    for (int k = threadIdx.x; k < full; k += blockDim.x) {
        tile[threadIdx.x] = in[k];
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int j = 0; j < blockDim.x; ++j) {
                acc += tile[j];
            }
        }
        __syncthreads();
    }
    int limit = n - n % blockDim.x;
    for (int k = limit + threadIdx.x; k < n; k += blockDim.x) {
        acc += in[k];
    }
    for (int k = threadIdx.x; k < n / blockDim.x * blockDim.x; k += blockDim.x) {
        __syncthreads();
    }
    atomicAdd(&sums[blockIdx.x], acc);
}

int main() {
    const int n = 10000;
    const int rows = 96;
    const int cols = 80;
    const int blocks = (n + BLOCK - 1) / BLOCK;
    std::vector<float> h(n, 1.0f);

    float* d_in = nullptr;
    float* d_out = nullptr;
    float* d_sums = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_sums, blocks * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_out, 0, n * sizeof(float)));
    HIP_CHECK(hipMemset(d_sums, 0, blocks * sizeof(float)));

    hipLaunchKernelGGL(scaleFlagged, blocks, BLOCK, 0, 0, d_in, d_out, 2.0f, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(copyEarlyExit, blocks, BLOCK, 0, 0, d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(clampedRead, blocks, BLOCK, 0, 0, d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    dim3 block2d(16, 16);
    dim3 grid2d((cols + 15) / 16, (rows + 15) / 16);
    hipLaunchKernelGGL(transposeTile, grid2d, block2d, 0, 0, d_in, d_out, rows, cols);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(ringWrite, blocks, BLOCK, 0, 0, d_out, 1024, 3.0f);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(guardedByHelper, blocks, BLOCK, 0, 0, d_out, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(blockSum, blocks, BLOCK, 0, 0, d_in, d_sums, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    printf("out[7] = %f\n", h[7]);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipFree(d_sums));
    return 0;
}

// A flag set true and cleared by the out-of-range tests (a stencil's read and write flags).
__global__ void stencilFlags(const float* input, float* output, int dimx, int dimy) {
    int gtidx = blockIdx.x * blockDim.x + threadIdx.x;
    int gtidy = blockIdx.y * blockDim.y + threadIdx.y;
    bool validw = true;
    if ((gtidx >= dimx) || (gtidy >= dimy))
        validw = false;
    if (validw)
        output[gtidy * dimx + gtidx] = 0.5f * input[gtidy * dimx + gtidx];
}
