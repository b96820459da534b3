// Clean: the first 256 threads fill the output and leave, after passing three barriers; the
// others count experts and pass the three barriers of the rest of the kernel. Every thread
// meets every barrier, as the small-batch alignment kernels of MoE routers are written.
#include <cstdint>
#include <cuda_runtime.h>

template <int32_t fill_threads>
__global__ void align_by_expert(const int32_t *expert_of, int32_t *sorted, int32_t *offsets,
                                int32_t experts, int32_t count, int32_t padded)
{
    if (threadIdx.x < fill_threads) {
        for (int32_t i = threadIdx.x; i < padded; i += fill_threads)
            sorted[i] = count;
        __syncthreads();
        __syncthreads();
        __syncthreads();
        return;
    }
    const int tid = threadIdx.x - fill_threads;
    const int stride = blockDim.x - fill_threads;
    extern __shared__ int32_t histogram[];
    for (int e = 0; e < experts; ++e)
        histogram[(tid + 1) * experts + e] = 0;
    for (int i = tid; i < count; i += stride)
        ++histogram[(tid + 1) * experts + expert_of[i]];
    __syncthreads();
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

int align(const int32_t *expert_of, int32_t *sorted, int32_t *offsets, int32_t experts,
          int32_t count, int32_t padded, cudaStream_t stream)
{
    constexpr int32_t fill_threads = 256;
    const int32_t expert_threads = experts > 32 ? experts : 32;
    const size_t shared = (expert_threads + 1) * experts * sizeof(int32_t);
    align_by_expert<fill_threads><<<1, fill_threads + expert_threads, shared, stream>>>(
        expert_of, sorted, offsets, experts, count, padded);
    return cudaGetLastError() != cudaSuccess;
}
