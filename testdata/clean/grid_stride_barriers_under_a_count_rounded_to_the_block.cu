// Clean: a flip-compaction pass in the style of GPU Delaunay builders. The grid-stride loop runs
// to the tetrahedron count rounded up to the block size (`roundUp(num, blockDim.x)`), so every
// thread of a block crosses the end on the same trip and the whole block meets the barriers in
// the loop; the real count is tested inside, where the vote is read.
#include "cuda_check.h"

__device__ int roundUp(int value, int multiple) {
    return ((value + multiple - 1) / multiple) * multiple;
}

__global__ void compactFlips(const int* voteArr, int voteOffset, int actTetNum, int* flipCounts) {
    __shared__ int blockFlips;
    const int actTetNumRounded = roundUp(actTetNum, blockDim.x);
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < actTetNumRounded;
         idx += gridDim.x * blockDim.x) {
        const int vote = (idx < actTetNum) ? voteArr[idx] : -1;
        if (threadIdx.x == 0) blockFlips = 0;
        __syncthreads();
        if (vote == voteOffset + idx) atomicAdd(&blockFlips, 1);
        __syncthreads();
        if (threadIdx.x == 0) flipCounts[blockIdx.x] += blockFlips;
    }
}

void countFlips(const int* voteArr, int voteOffset, int actTetNum, int* flipCounts, int blocks,
                int threads) {
    compactFlips<<<blocks, threads>>>(voteArr, voteOffset, actTetNum, flipCounts);
    CUDA_CHECK(cudaGetLastError());
}
