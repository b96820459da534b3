// Bad: the threads that fill the output leave after two barriers, while the others pass three:
// the third barrier waits on threads that have left (undefined behaviour), and the scan after
// it may read counts the others have not finished writing.
#include <cstdint>
#include <cuda_runtime.h>
#include "cuda_check.h"

template <int32_t fill_threads>
__global__ void align_by_expert(const int32_t *expert_of, int32_t *sorted, int32_t *offsets,
                                int32_t experts, int32_t count, int32_t padded)
{
    if (threadIdx.x < fill_threads) {
        for (int32_t i = threadIdx.x; i < padded; i += fill_threads)
            sorted[i] = count;
        __syncthreads(); // expect: divergent-barrier
        __syncthreads(); // expect: divergent-barrier
        return;
    }
    const int tid = threadIdx.x - fill_threads;
    const int stride = blockDim.x - fill_threads;
    extern __shared__ int32_t histogram[];
    for (int e = 0; e < experts; ++e)
        histogram[(tid + 1) * experts + e] = 0;
    for (int i = tid; i < count; i += stride)
        ++histogram[(tid + 1) * experts + expert_of[i]];
    __syncthreads(); // expect: divergent-barrier
    if (tid < experts) {
        histogram[tid] = 0;
        for (int i = 1; i <= stride; ++i)
            histogram[i * experts + tid] += histogram[(i - 1) * experts + tid];
    }
    __syncthreads();
    if (tid == 0)
        for (int e = 1; e < experts; ++e)
            histogram[e] += histogram[e - 1];
    __syncthreads();
    if (tid < experts)
        offsets[tid] = histogram[stride * experts + tid];
}

int main()
{
    const int32_t experts = 8, count = 4096, padded = 8192;
    int32_t *expert_of, *sorted, *offsets;
    CUDA_CHECK(cudaMalloc(&expert_of, sizeof(int32_t) * count));
    CUDA_CHECK(cudaMalloc(&sorted, sizeof(int32_t) * padded));
    CUDA_CHECK(cudaMalloc(&offsets, sizeof(int32_t) * experts));
    CUDA_CHECK(cudaMemset(expert_of, 0, sizeof(int32_t) * count));
    constexpr int32_t fill_threads = 256;
    const int32_t expert_threads = 32;
    const size_t shared = (expert_threads + 1) * experts * sizeof(int32_t);
    align_by_expert<fill_threads><<<1, fill_threads + expert_threads, shared>>>(
        expert_of, sorted, offsets, experts, count, padded);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(expert_of));
    CUDA_CHECK(cudaFree(sorted));
    CUDA_CHECK(cudaFree(offsets));
    return 0;
}
