// Clean: a per-thread result buffer held in a thrust::device_vector of exactly blocks * threads
// elements (zero-filled by thrust), passed as its raw device pointer through a macro, directly,
// and through `&v[0]`. The grid is exactly `blocks` blocks of `threads`, so every thread writes
// its own slot; thrust frees the vectors, and nothing reads an unwritten element.
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include "cuda_check.h"

#define D_PTR(X) thrust::raw_pointer_cast((X).data())

// Each thread counts the non-zero values of its chunk into its own slot.
__global__ void countChunks(const int* in, unsigned long long n, unsigned long long* count) {
    const unsigned long long chunk = n / (gridDim.x * blockDim.x) + 1;
    const unsigned long long id = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long from = id * chunk;
    unsigned long long c = 0;
    for (unsigned long long i = from; i < from + chunk && i < n; ++i) c += in[i] != 0;
    count[id] = c;
}

struct Counter {
    unsigned numBlocks, numThreadsPerBlock;

    unsigned long long run(const thrust::device_vector<int>& in) {
        thrust::device_vector<unsigned long long> count(numBlocks * numThreadsPerBlock);
        countChunks<<<numBlocks, numThreadsPerBlock>>>(D_PTR(in), in.size(), D_PTR(count));
        CUDA_CHECK(cudaGetLastError());
        thrust::device_vector<unsigned long long> again(numBlocks * numThreadsPerBlock, 0ULL);
        countChunks<<<numBlocks, numThreadsPerBlock>>>(D_PTR(in), in.size(),
                                                       thrust::raw_pointer_cast(again.data()));
        CUDA_CHECK(cudaGetLastError());
        thrust::device_vector<unsigned long long> resized;
        resized.resize(numBlocks * numThreadsPerBlock);
        countChunks<<<numBlocks, numThreadsPerBlock>>>(D_PTR(in), in.size(),
                                                       thrust::raw_pointer_cast(&resized[0]));
        CUDA_CHECK(cudaGetLastError());
        return thrust::reduce(count.begin(), count.end()) + thrust::reduce(again.begin(), again.end()) +
               thrust::reduce(resized.begin(), resized.end());
    }
};
