// Clean: launches and kernels whose threads stay inside the data for reasons spread over
// branches, helpers, loops and flags: a grid and block chosen in the branches of an `if`, a
// grid a host helper returns, a rounding helper written as a choice over constants the block
// divides, a grid built with `make_uint3`, a constant initialised directly, a floor of a product
// of sizes, an offset stepped a counted number of times inside its block's span, positions read
// back from shared memory after a sort, a flag set under a test of the valid range of a tile,
// a copy of a row number taken before the row is turned into an element offset, and buffers
// the host sizes from the grid it launches (a padded count, a count of blocks read back from
// the device).
#include <algorithm>
#include "hip_check.h"

#define PARTS 16
#define SPAN 2048
#define TILE 16
#define HALO 1

static unsigned div_up(unsigned total, unsigned per) {
    return (total % per == 0) ? (total / per) : (total / per + 1);
}

// One pass of a pairwise transform: each thread reads two neighbours and writes one output.
// The block size is passed in, since the shared buffer is sized from it.
__global__ void pair_step(const float* in, float* out, unsigned half, int width) {
    extern __shared__ float pairs[];
    const int t = threadIdx.x;
    const int first = blockIdx.x * (2 * width) + t;
    pairs[t] = in[first];
    pairs[t + width] = in[first + width];
    __syncthreads();
    out[blockIdx.x * width + t + half] = pairs[2 * t] - pairs[2 * t + 1];
}

// One block per (head, query tile) and one row of blocks per batch entry.
__global__ void scale_scores(float* scores, int heads, int seq, float factor) {
    const int row = blockIdx.y * gridDim.x + blockIdx.x;
    scores[row * blockDim.x + threadIdx.x] *= factor;
}

__global__ void block_scan(int* data, int width) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    data[id] += width;
}

__global__ void merge_histograms(unsigned* bins, int tables) {
    const int at = blockIdx.x * 64 + threadIdx.x;
    bins[at] += bins[at + 64 * tables];
}

constexpr unsigned kCells(64 * 64 * 64);
constexpr unsigned kCellBlocks(kCells / 128);

__global__ void mark_cells(const float* range, unsigned* marks, float level) {
    const unsigned cell = blockIdx.x * 128 + threadIdx.x;
    marks[cell] = range[2 * cell] <= level && range[2 * cell + 1] >= level;
}

// Each block packs one chunk of SPAN bytes.
__global__ void pack_chunks(const unsigned char* in, unsigned char* out, int chunks) {
    for (int part = 0; part < SPAN / 128; part++) {
        const int at = blockIdx.x * SPAN + part * 128 + threadIdx.x;
        out[at] = in[at] ^ 0x5a;
    }
}

// Each block ANDs the PARTS slices of its own row of the bitmap.
__global__ void and_slices(const unsigned char* bitmap, unsigned char* keep, int rows) {
    int at = blockIdx.x * SPAN + threadIdx.x;
    unsigned char all = bitmap[at];
    for (int p = 0; p < PARTS - 1; p++) {
        at += SPAN / PARTS;
        all &= bitmap[at];
    }
    keep[blockIdx.x * (SPAN / PARTS) + threadIdx.x] = all;
}

// Sorts each block's keys in shared memory, then gathers the values in that order: the
// positions read back are the block's own.
__global__ void sort_segments(const int* keys, const float* values, float* sorted,
                              const int* starts, int longest) {
    __shared__ int key_of[256];
    __shared__ int slot_of[256];
    const int tid = threadIdx.x;
    const int base = starts[blockIdx.x] + blockIdx.y * 256;
    int slot = tid;
    key_of[tid] = tid < longest ? keys[base + tid] : 0x7fffffff;
    slot_of[tid] = slot;
    __syncthreads();
    for (int width = 1; width < 256; width *= 2) {
        const int partner = tid ^ width;
        int other_key = key_of[partner];
        int other_slot = slot_of[partner];
        __syncthreads();
        const bool take = (tid & width) ? key_of[tid] < other_key : key_of[tid] > other_key;
        if (take) {
            key_of[tid] = other_key;
            slot_of[tid] = other_slot;
        }
        __syncthreads();
    }
    slot = slot_of[tid];
    if (tid < longest) sorted[starts[blockIdx.x] + tid] = values[base + slot];
}

// A pyramid of relaxation steps on tiles that overlap by a halo: a thread writes its result
// only if it lies inside the tile's valid range, which ends where the row ends.
__global__ void relax_tiles(const float* src, float* dst, int cols, int steps) {
    __shared__ float row[TILE];
    __shared__ float next[TILE];
    const int tx = threadIdx.x;
    const int inner = TILE - 2 * HALO * steps;
    const int start = inner * blockIdx.x - HALO * steps;
    const int end = start + TILE - 1;
    const int x = start + tx;
    const int lo = (start < 0) ? -start : 0;
    const int hi = (end > cols - 1) ? TILE - 1 - (end - cols + 1) : TILE - 1;
    if (x >= 0 && x < cols) row[tx] = src[x];
    __syncthreads();
    bool settled = false;
    for (int s = 0; s < steps; s++) {
        settled = false;
        if (tx >= s + 1 && tx <= TILE - s - 2 && tx >= lo && tx <= hi) {
            settled = true;
            next[tx] = (row[tx - 1] + row[tx] + row[tx + 1]) / 3.0f;
        }
        __syncthreads();
        if (settled) row[tx] = next[tx];
        __syncthreads();
    }
    if (settled) dst[x] = row[tx];
}

// One warp per row of a matrix-vector product: the row number is tested once, then turned into
// the row's first element.
__global__ void row_dot(const float* m, const float* v, float* y, int rows, int cols) {
    int row = (blockDim.x / 32) * blockIdx.x + threadIdx.x / 32;
    const bool in_rows = row < rows;
    const int out = row;
    row = row * cols;
    const int end = row + cols;
    float sum = 0.0f;
    if (in_rows) {
        for (int e = row + threadIdx.x % 32; e < end; e += 32) sum += m[e] * v[e - row];
        for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffff, sum, d);
        if (threadIdx.x % 32 == 0) y[out] = sum;
    }
}

// One slot of generator state per thread of a grid sized from a padded count.
__global__ void seed_states(unsigned seed, unsigned* state) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    state[i] = seed ^ i;
}

// Each block records the low and high value of each of its 9 planes of 5 x 5 columns.
constexpr unsigned kColumns(5 * 5);
constexpr unsigned kPlanes(9);
__global__ void plane_ranges(const float* volume, const unsigned* active, float* ranges) {
    const unsigned column(threadIdx.y);
    unsigned at(2 * (column + kColumns * kPlanes * blockIdx.x));
    const float* cell = volume + active[blockIdx.x] * kColumns * kPlanes;
    for (int p(0); p < kPlanes; ++p) {
        if (threadIdx.x == 0) {
            ranges[at] = cell[column];
            ranges[at + 1] = cell[column];
            at += 2 * kColumns;
        }
    }
}

dim3 score_grid(int batch, int heads, int seq, int threads) {
    const int per_block = threads / seq > 0 ? threads / seq : 1;
    unsigned x = heads * seq / per_block;
    unsigned y = batch;
    return {x, y};
}

void run(const float* d_signal, float* d_out, float* d_scores, int* d_data, unsigned* d_bins,
         const float* d_range, unsigned* d_marks, const unsigned char* d_in, unsigned char* d_packed,
         unsigned char* d_keep, const int* d_keys, const float* d_values, float* d_sorted,
         const int* d_starts, const float* d_src, float* d_dst, const float* d_m, const float* d_v,
         float* d_y, unsigned length, int batch, int heads, int seq, unsigned bytes, int segments,
         int longest, int cols, int steps, int rows, int mcols) {
    // one block for a short signal, blocks of 512 pairs for a long one
    unsigned half = length / 2;
    dim3 blocks, threads;
    if (half <= 512) {
        threads.x = half;
    } else {
        blocks.x = half / 512;
        threads.x = 512;
    }
    hipLaunchKernelGGL(pair_step, blocks, threads, 2 * threads.x * sizeof(float), 0, d_signal, d_out, half, threads.x);
    HIP_CHECK(hipGetLastError());

    dim3 grid = score_grid(batch, heads, seq, 128);
    hipLaunchKernelGGL(scale_scores, grid, 128, 0, 0, d_scores, heads, seq, 0.125f);
    HIP_CHECK(hipGetLastError());

    const int count = 1 << 16;
    int block = 256;
    int partials = count / block;
    int partial_threads = std::min(partials, block);
    hipLaunchKernelGGL(block_scan, count / block, block, 0, 0, d_data, 32);
    hipLaunchKernelGGL(block_scan, div_up(partials, partial_threads), partial_threads, 0, 0, d_data, 32);
    HIP_CHECK(hipGetLastError());

    dim3 merge(4, 1, 1);
    merge = make_uint3(16, 1, 1);
    hipLaunchKernelGGL(merge_histograms, merge, 64, 0, 0, d_bins, 3);
    hipLaunchKernelGGL(mark_cells, kCellBlocks, 128, 0, 0, d_range, d_marks, 0.5f);
    HIP_CHECK(hipGetLastError());

    const unsigned padding = bytes % SPAN == 0 ? 0 : SPAN - bytes % SPAN;
    const unsigned words = (bytes + padding) / sizeof(int);
    const unsigned chunks = words * sizeof(int) / SPAN;
    hipLaunchKernelGGL(pack_chunks, chunks, 128, 0, 0, d_in, d_packed, chunks);
    HIP_CHECK(hipGetLastError());

    int live = 0;
    while (live < segments) live++;
    hipLaunchKernelGGL(and_slices, live, SPAN / PARTS, 0, 0, d_packed, d_keep, live);
    dim3 segment_grid(segments, (longest + 255) / 256);
    hipLaunchKernelGGL(sort_segments, segment_grid, 256, 0, 0, d_keys, d_values, d_sorted, d_starts, longest);
    HIP_CHECK(hipGetLastError());

    const int inner = TILE - 2 * HALO * steps;
    const int tiles = cols / inner + (cols % inner == 0 ? 0 : 1);
    hipLaunchKernelGGL(relax_tiles, tiles, TILE, 0, 0, d_src, d_dst, cols, steps);
    hipLaunchKernelGGL(row_dot, (rows + 3) / 4, 128, 0, 0, d_m, d_v, d_y, rows, mcols);
    HIP_CHECK(hipGetLastError());

    const int state_count = (rows / 256 + 1) * 256;
    unsigned* d_state;
    HIP_CHECK(hipMalloc((void**)&d_state, sizeof(unsigned) * state_count));
    hipLaunchKernelGGL(seed_states, state_count / 256, 256, 0, 0, 42u, d_state);
    HIP_CHECK(hipGetLastError());

    // the blocks to scan are counted on the device
    unsigned live_blocks = 0;
    unsigned* d_live;
    HIP_CHECK(hipMalloc((void**)&d_live, sizeof(unsigned)));
    HIP_CHECK(hipMemset(d_live, 0, sizeof(unsigned)));
    HIP_CHECK(hipMemcpy(&live_blocks, d_live, sizeof(unsigned), hipMemcpyDeviceToHost));
    float* d_ranges;
    HIP_CHECK(hipMalloc((void**)&d_ranges, live_blocks * kColumns * kPlanes * 2 * sizeof(float)));
    const dim3 columns{16, kColumns, 1};
    hipLaunchKernelGGL(plane_ranges, live_blocks, columns, 0, 0, d_src, d_live, d_ranges);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_ranges));
    HIP_CHECK(hipFree(d_live));
    HIP_CHECK(hipFree(d_state));
}
