// Binary searches run by each thread: the midpoint they probe always lies between the bounds the
// search started with, since the lower bound only moves up to the midpoint (or one past it) and
// the upper bound only down. Searching `[0, tid)` under `tid < num`, or the merge path
// `[max(0, k - n), min(k, m)]` of a thread that returned past `m + n`, never leaves the buffer.
#include <cstdio>
#include "cuda_check.h"

__global__ void run_starts(const int* prefix, int* starts, int num) {
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    if (tid < num) {
        int low = 0;
        int high = tid;
        while (high > low) {
            const int mid = (low + high) / 2;
            if (prefix[mid] == prefix[tid]) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        starts[tid] = low;
    }
}

__global__ void merge_path(const float* a, const float* b, float* merged, int m, int n) {
    int total = m + n;
    int k = threadIdx.x + blockDim.x * blockIdx.x;
    if (k >= total) return;
    int lo = (k - n <= 0) ? 0 : (k - n);
    int hi = (k < m) ? k : m;
    while (lo < hi) {
        int mid = lo + ((hi - lo) >> 1);
        if (a[mid] < b[k - mid - 1]) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    int j = k - lo;
    merged[k] = (lo < m && (j >= n || a[lo] <= b[j])) ? a[lo] : b[j];
}

// the inclusive form: `lo <= hi`, the upper bound moved one below the midpoint
__global__ void segment_of(const int* offsets, int segments, int* segment, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int lo = 0, hi = min(i, segments - 1);
    int found = 0;
    while (lo <= hi) {
        int mid = (lo + hi) >> 1;
        if (offsets[mid] <= i) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    segment[i] = found;
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
