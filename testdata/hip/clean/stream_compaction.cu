// Clean: stream compaction in two passes, as point-cloud and splatting code writes it. The
// first pass counts the kept items of each block; the host turns the counts into offsets; the
// second pass gives each kept item the slot that the block's scan of the keep flags and the
// block's offset make. The slot is computed from a test's outcome (0 or 1) and values read from
// memory, not from the thread's position, so it is no thread index.
#include <cub/block/block_scan.cuh>
#include <cub/block/block_reduce.cuh>
#include "hip_check.h"

constexpr int kThreads = 256;

__global__ void count_kept(const float* depth, int n, float near_plane, int* block_counts) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const bool keep = idx < n && depth[idx] > near_plane;
    int flag = static_cast<int>(keep);
    typedef cub::BlockReduce<int, kThreads> BlockReduce;
    __shared__ typename BlockReduce::TempStorage reduce_storage;
    const int kept = BlockReduce(reduce_storage).Sum(flag);
    if (threadIdx.x == 0) {
        block_counts[blockIdx.x] = kept;
    }
}

__global__ void write_kept(const float* depth, int n, float near_plane, const int* block_offsets,
                           int* kept_ids, float* kept_depth) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    const bool keep = idx < n && depth[idx] > near_plane;
    int slot = static_cast<int>(keep);
    typedef cub::BlockScan<int, kThreads> BlockScan;
    __shared__ typename BlockScan::TempStorage scan_storage;
    BlockScan(scan_storage).ExclusiveSum(slot, slot);
    if (keep) {
        if (blockIdx.x > 0) {
            slot += block_offsets[blockIdx.x - 1];
        }
        kept_ids[slot] = idx;
        kept_depth[slot] = depth[idx];
    }
}

int compact(const float* d_depth, int n, float near_plane, int** d_ids, float** d_kept) {
    const int blocks = (n + kThreads - 1) / kThreads;
    int* d_counts = nullptr;
    HIP_CHECK(hipMalloc(&d_counts, blocks * sizeof(int)));
    count_kept<<<blocks, kThreads>>>(d_depth, n, near_plane, d_counts);
    HIP_CHECK(hipGetLastError());

    int* h_counts = static_cast<int*>(malloc(blocks * sizeof(int)));
    HIP_CHECK(hipMemcpy(h_counts, d_counts, blocks * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 1; b < blocks; ++b) {
        h_counts[b] += h_counts[b - 1];
    }
    const int total = blocks > 0 ? h_counts[blocks - 1] : 0;
    HIP_CHECK(hipMemcpy(d_counts, h_counts, blocks * sizeof(int), hipMemcpyHostToDevice));
    free(h_counts);

    HIP_CHECK(hipMalloc(d_ids, (total + 1) * sizeof(int)));
    HIP_CHECK(hipMalloc(d_kept, (total + 1) * sizeof(float)));
    write_kept<<<blocks, kThreads>>>(d_depth, n, near_plane, d_counts, *d_ids, *d_kept);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_counts));
    return total;
}
