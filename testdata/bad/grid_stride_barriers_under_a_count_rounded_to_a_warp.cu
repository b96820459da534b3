// Bad: the same flip-compaction pass, but the loop's end is the count rounded up to a warp
// (`roundUp(num, 32)`) under blocks of 128 threads: on the last trip only the first warps of a
// block are still below the end, and the barriers inside wait for the warps that left.
#include "cuda_check.h"

__device__ int roundUp(int value, int multiple) {
    return ((value + multiple - 1) / multiple) * multiple;
}

__global__ void compactFlips(const int* voteArr, int voteOffset, int actTetNum, int* flipCounts) {
    __shared__ int blockFlips;
    const int actTetNumRounded = roundUp(actTetNum, 32);
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < actTetNumRounded;
         idx += gridDim.x * blockDim.x) {
        const int vote = (idx < actTetNum) ? voteArr[idx] : -1;
        if (threadIdx.x == 0) blockFlips = 0;
        __syncthreads(); // expect: divergent-barrier
        if (vote == voteOffset + idx) atomicAdd(&blockFlips, 1);
        __syncthreads(); // expect: divergent-barrier
        if (threadIdx.x == 0) flipCounts[blockIdx.x] += blockFlips;
    }
}

void countFlips(const int* voteArr, int voteOffset, int actTetNum, int* flipCounts) {
    compactFlips<<<4, 128>>>(voteArr, voteOffset, actTetNum, flipCounts);
    CUDA_CHECK(cudaGetLastError());
}
