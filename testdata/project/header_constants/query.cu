// One query per block: the block is exactly LANES_PER_QUERY threads (from sizes.h), so
// `threadIdx.x / LANES_PER_QUERY` is 0 in every thread and the test on the query is the
// block's own.
#include <cuda_runtime.h>
#include "sizes.h"

__global__ void bestMatch(const float* scores, float* best, int numQueries) {
    __shared__ float partial[LANES_PER_QUERY];
    int query = threadIdx.x / LANES_PER_QUERY + blockIdx.x;
    int lane = threadIdx.x % LANES_PER_QUERY;
    if (query < numQueries) {
        partial[lane] = scores[query * LANES_PER_QUERY + lane];
        __syncthreads();
        for (int s = LANES_PER_QUERY / 2; s > 0; s >>= 1) {
            if (lane < s) partial[lane] = fmaxf(partial[lane], partial[lane + s]);
            __syncthreads();
        }
        if (lane == 0) best[query] = partial[0];
    }
}

int findBest(const float* scores, float* best, int numQueries) {
    bestMatch<<<numQueries, LANES_PER_QUERY>>>(scores, best, numQueries);
    return cudaGetLastError() != cudaSuccess;
}
