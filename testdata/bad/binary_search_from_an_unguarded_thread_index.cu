// A binary search over `[0, tid)` by every thread of a rounded-up grid: the midpoint stays below
// `tid`, but nothing keeps `tid` below `num`, so the threads of the last block probe past the
// end of the prefix array.
#include <cstdio>
#include "cuda_check.h"

__global__ void run_starts(const int* prefix, int* starts, int num) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int key = tid < num ? prefix[tid] : 0;
    int low = 0;
    int high = tid;
    while (low < high) {
        const int mid = (low + high) / 2;
        if (prefix[mid] < key) { // expect: unguarded-thread-index
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    if (tid < num) starts[tid] = low;
}

void run(const int* h_prefix, int num) {
    int *d_prefix, *d_starts;
    CUDA_CHECK(cudaMalloc(&d_prefix, num * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_starts, num * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_prefix, h_prefix, num * sizeof(int), cudaMemcpyHostToDevice));
    run_starts<<<(num + 255) / 256, 256>>>(d_prefix, d_starts, num);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_prefix));
    CUDA_CHECK(cudaFree(d_starts));
}
