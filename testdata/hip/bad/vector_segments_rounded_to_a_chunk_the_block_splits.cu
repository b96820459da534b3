// Bad: the segment's end is rounded to chunks of 1000 elements, which a block of 1024 threads
// taking four elements each (4096) does not fill: on the last trip some threads of a block are
// still below the end and wait at the barrier the others never reach.
#include "hip_check.h"

__global__ void partition_pass(const int* keys, const size_t* segments, int segment_count,
                               int* block_counts) {
    __shared__ int histogram[4096];
    for (int s = 0; s < segment_count; ++s) {
        size_t start = segments[2 * s];
        size_t limit = segments[2 * s + 1];
        size_t end = start + ((limit - start + 999) / 1000) * 1000;
        for (size_t i = 4 * (threadIdx.x + blockIdx.x * blockDim.x) + start; i < end;
             i += 4 * blockDim.x * gridDim.x) {
            for (int k = 0; k < 4; ++k) {
                histogram[4 * threadIdx.x + k] = i + k < limit ? keys[i + k] & 1 : 0;
            }
            __syncthreads(); // expect: divergent-barrier
            if (threadIdx.x == 0) {
                block_counts[blockIdx.x] += histogram[0];
            }
            __syncthreads(); // expect: divergent-barrier
        }
    }
}

void partition(const int* keys, const size_t* segments, int segment_count, int* block_counts) {
    hipLaunchKernelGGL(partition_pass, 64, 1024, 0, 0, keys, segments, segment_count, block_counts);
    HIP_CHECK(hipGetLastError());
}
