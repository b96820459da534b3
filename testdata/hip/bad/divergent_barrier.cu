// Bad: block-wide barriers reachable only by some threads of the block.
#include <hip/hip_cooperative_groups.h>
#include <cstdio>
#include <hip/hip_runtime.h>

namespace cg = cooperative_groups;

#define BLOCK 256

__global__ void halfBlockSync(float* data, int n) {
    __shared__ float s[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = (i < n) ? data[i] : 0.0f;
    if (threadIdx.x < BLOCK / 2) {
        s[threadIdx.x] += s[threadIdx.x + BLOCK / 2];
        __syncthreads(); // expect: divergent-barrier
    }
    if (i < n) {
        data[i] = s[threadIdx.x];
    }
}

__global__ void earlyReturnThenSync(const float* in, float* out, int n) {
    __shared__ float tile[BLOCK];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= n) {
        return;
    }
    tile[threadIdx.x] = in[gid];
    // The tail threads of the last block have returned and never arrive.
    __syncthreads(); // expect: divergent-barrier
    out[gid] = tile[(threadIdx.x + 1) % BLOCK];
}

__global__ void strideLoopSync(const float* in, float* out, int n) {
    __shared__ float acc[BLOCK];
    acc[threadIdx.x] = 0.0f;
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
        acc[threadIdx.x] += in[k];
        __syncthreads(); // expect: divergent-barrier
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = acc[0];
    }
}

__global__ void laneConditionSync(int* flags, int n) {
    int lane = threadIdx.x % 32;
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane == 0) {
        int any = __syncthreads_or(gid < n); // expect: divergent-barrier
        if (any && gid < n) {
            flags[gid] = 1;
        }
    }
}

__global__ void cgConditionalSync(float* data, int n) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ float buf[BLOCK];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = (gid < n) ? data[gid] : 0.0f;
    if (threadIdx.x < 64) {
        block.sync(); // expect: divergent-barrier
    }
    if (threadIdx.x < 32) {
        buf[threadIdx.x] *= 2.0f;
        cg::sync(block); // expect: divergent-barrier
    }
    if (gid < n) {
        data[gid] = buf[threadIdx.x];
    }
}

__global__ void countUnderCondition(const int* keys, int* blockCounts, int n) {
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < n) {
        int c = __syncthreads_count(keys[gid] > 0); // expect: divergent-barrier
        if (threadIdx.x == 0) {
            blockCounts[blockIdx.x] = c;
        }
    }
}

__global__ void skipThenSync(const int* rowLen, float* out, int rows) {
    for (int r = 0; r < rows; ++r) {
        if (threadIdx.x >= rowLen[r]) {
            continue;
        }
        __syncthreads(); // expect: divergent-barrier
        out[r * blockDim.x + threadIdx.x] = 1.0f;
    }
}

// A block-wide scan in a helper: every call of it is a barrier for the caller.
__device__ float blockScan(float* buffer, float value) {
    buffer[threadIdx.x] = value;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        float add = threadIdx.x >= offset ? buffer[threadIdx.x - offset] : 0.0f;
        __syncthreads();
        buffer[threadIdx.x] += add;
        __syncthreads();
    }
    return buffer[threadIdx.x];
}

__global__ void prefixRows(const float* in, float* out, int width, int height) {
    __shared__ float buffer[BLOCK];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= width || y >= height) return;
    float sum = blockScan(buffer, in[y * width + x]); // expect: divergent-barrier
    out[y * width + x] = sum;
}

__global__ void scanActive(float* data, int active) {
    __shared__ float buffer[BLOCK];
    if (threadIdx.x < active) {
        data[threadIdx.x] = blockScan(buffer, data[threadIdx.x]); // expect: divergent-barrier
    }
}

void launchPrefixRows(const float* in, float* out, int width, int height) {
    dim3 block(BLOCK);
    dim3 grid((width + BLOCK - 1) / BLOCK, height);
    prefixRows<<<grid, block>>>(in, out, width, height);
    if (hipGetLastError() != hipSuccess) {
        fprintf(stderr, "prefixRows launch failed\n");
    }
}

// Blocks of up to two tiles: `warp_id / kWarpsPerTile` is 0 or 1 within a block, so in the last
// block the second tile's threads may return while the first tile's wait at the barrier.
constexpr int kTileWarp = 32;
constexpr int kWarpsPerTile = 8;
constexpr int kTwoTileThreads = 512;

__global__ void __launch_bounds__(kTwoTileThreads) reverse_tile_pairs(float* out, int num_tiles) {
    __shared__ float tile[kTwoTileThreads];
    const int warp_id = threadIdx.x / kTileWarp;
    const int tile_id = 2 * blockIdx.x + warp_id / kWarpsPerTile;
    if (tile_id >= num_tiles) {
        return;
    }
    tile[threadIdx.x] = out[tile_id * 256 + threadIdx.x % 256];
    __syncthreads(); // expect: divergent-barrier
    out[tile_id * 256 + threadIdx.x % 256] = tile[threadIdx.x ^ 255];
}

void reverse_all_tile_pairs(float* d_out, int num_tiles) {
    reverse_tile_pairs<<<(num_tiles + 1) / 2, kTwoTileThreads>>>(d_out, num_tiles);
    if (hipGetLastError() != hipSuccess) {
        abort();
    }
}
