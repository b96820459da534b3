// Bad: the per-thread result buffer is a thrust::device_vector of `numBlocks` elements, one per
// block, but the kernel writes one slot per thread: every block but the first writes past it.
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include "cuda_check.h"

#define D_PTR(X) thrust::raw_pointer_cast((X).data())

__global__ void countChunks(const int* in, unsigned long long n, unsigned long long* count) {
    const unsigned long long chunk = n / (gridDim.x * blockDim.x) + 1;
    const unsigned long long id = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned long long from = id * chunk;
    unsigned long long c = 0;
    for (unsigned long long i = from; i < from + chunk && i < n; ++i) c += in[i] != 0;
    count[id] = c; // expect: unguarded-thread-index
}

struct Counter {
    unsigned numBlocks, numThreadsPerBlock;

    unsigned long long run(const thrust::device_vector<int>& in) {
        thrust::device_vector<unsigned long long> count(numBlocks);
        countChunks<<<numBlocks, numThreadsPerBlock>>>(D_PTR(in), in.size(), D_PTR(count));
        CUDA_CHECK(cudaGetLastError());
        return thrust::reduce(count.begin(), count.end());
    }
};
