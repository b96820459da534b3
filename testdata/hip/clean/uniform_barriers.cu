// Clean: barriers under conditions that are uniform across the block (blockIdx, kernel parameters,
// blockDim), block-uniform early exits, and threadIdx-dependent work without barriers inside.
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

#define BLOCK 128

__global__ void tileNormalize(const float* in, float* out, int n, int numTiles, bool subtractMean) {
    __shared__ float tile[BLOCK];
    __shared__ float mean;

    if (blockIdx.x >= numTiles) {
        return;
    }

    int i = blockIdx.x * BLOCK + threadIdx.x;
    tile[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    if (subtractMean) {
        if (threadIdx.x == 0) {
            float s = 0.0f;
            for (int k = 0; k < BLOCK; ++k) s += tile[k];
            mean = s / BLOCK;
        }
        __syncthreads();
        tile[threadIdx.x] -= mean;
        __syncthreads();
    }

    if (blockIdx.x % 2 == 0) {
        __syncthreads();
    }

    if (i < n) {
        out[i] = tile[(threadIdx.x + 1) % BLOCK];
    }
}

__global__ void multiPass(float* data, int n, int passes) {
    __shared__ float buf[BLOCK];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    for (int p = 0; p < passes; ++p) {
        buf[threadIdx.x] = (gid < n) ? data[gid] : 0.0f;
        __syncthreads();
        float left = buf[(threadIdx.x + blockDim.x - 1) % blockDim.x];
        __syncthreads();
        if (gid < n) {
            data[gid] = 0.5f * (buf[threadIdx.x] + left);
        }
    }
    int votes = __syncthreads_count(gid < n);
    if (threadIdx.x == 0 && votes == 0) {
        printf("block %d had no work\n", blockIdx.x);
    }
}

int main() {
    const int n = 3000;
    const int numTiles = (n + BLOCK - 1) / BLOCK;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(rand() % 64);

    float* d_in = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h.data(), n * sizeof(float), hipMemcpyHostToDevice));

    tileNormalize<<<numTiles + 1, BLOCK>>>(d_in, d_out, n, numTiles, true);
    HIP_CHECK(hipGetLastError());
    multiPass<<<numTiles, BLOCK>>>(d_out, n, 3);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    printf("h[5] = %f\n", h[5]);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    return 0;
}

// An early return no thread takes: each launch covers the rows exactly, one block per row and
// one thread per column of a row as wide as the block.
__global__ void rowTotals(const float* in, float* totals, int rows) {
    __shared__ float partial[256];
    int row = blockIdx.x;
    if (row >= rows) return;
    partial[threadIdx.x] = in[row * 256 + threadIdx.x];
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) totals[row] = partial[0];
}

// A helper holding a barrier, called by every thread of the block.
__device__ float blockMax(float* scratch, float value) {
    scratch[threadIdx.x] = value;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) scratch[threadIdx.x] = fmaxf(scratch[threadIdx.x], scratch[threadIdx.x + stride]);
        __syncthreads();
    }
    return scratch[0];
}

__global__ void normalizeRows(float* data, int width) {
    __shared__ float scratch[256];
    float* row = data + blockIdx.x * width;
    float local = threadIdx.x < width ? row[threadIdx.x] : -1e30f;
    float peak = blockMax(scratch, local);
    if (threadIdx.x < width) row[threadIdx.x] = local / peak;
}

void launchRowKernels(const float* in, float* totals, float* data, int rows) {
    rowTotals<<<rows, 256>>>(in, totals, rows);
    HIP_CHECK(hipGetLastError());
    normalizeRows<<<rows, 256>>>(data, 256);
    HIP_CHECK(hipGetLastError());
}

// One tile per block: `__launch_bounds__` caps the block at one tile's warps, so
// `warp_id / kWarpsPerTile` is 0 in every thread and the early return is taken by whole blocks.
constexpr int kTileWarp = 32;
constexpr int kWarpsPerTile = 8;
constexpr int kTileThreads = 256;

__global__ void __launch_bounds__(kTileThreads) reverse_tiles(float* out, int num_tiles) {
    __shared__ float tile[kTileThreads];
    const int warp_id = threadIdx.x / kTileWarp;
    const int tile_id = blockIdx.x + warp_id / kWarpsPerTile;
    if (tile_id >= num_tiles) {
        return;
    }
    tile[threadIdx.x] = out[tile_id * kTileThreads + threadIdx.x];
    __syncthreads();
    out[tile_id * kTileThreads + threadIdx.x] = tile[kTileThreads - 1 - threadIdx.x];
}
