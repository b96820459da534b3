// Clean: a partition pass over segments, four elements a thread. Each segment's loop starts at
// the segment's start plus four times the thread's global index and ends at the start plus the
// length rounded up to whole chunks of 4096 (four elements of each of the 1024 threads of a
// block): every thread of a block crosses the end on the same trip, so the whole block reaches
// the barriers in the loop.
#include "cuda_check.h"

__global__ void partition_pass(const int* keys, const size_t* segments, int segment_count,
                               int* block_counts) {
    __shared__ int histogram[4096];
    for (int s = 0; s < segment_count; ++s) {
        size_t start = segments[2 * s];
        size_t limit = segments[2 * s + 1];
        size_t end = start + ((limit - start + 4095) / 4096) * 4096;
        for (size_t i = 4 * (threadIdx.x + blockIdx.x * blockDim.x) + start; i < end;
             i += 4 * blockDim.x * gridDim.x) {
            for (int k = 0; k < 4; ++k) {
                histogram[4 * threadIdx.x + k] = i + k < limit ? keys[i + k] & 1 : 0;
            }
            __syncthreads();
            if (threadIdx.x == 0) {
                int total = 0;
                for (int k = 0; k < 4096; ++k) {
                    total += histogram[k];
                }
                block_counts[blockIdx.x] += total;
            }
            __syncthreads();
        }
    }
}

void partition(const int* keys, const size_t* segments, int segment_count, int* block_counts) {
    partition_pass<<<64, 1024>>>(keys, segments, segment_count, block_counts);
    CUDA_CHECK(cudaGetLastError());
}
