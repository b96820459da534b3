// Bad: the loop prefetches the next time step's value right after stepping the offset, before
// the header steps `t` and tests it again: on the last time step the prefetch reads one stride
// past the end of `src`.
#include "cuda_check.h"

__global__ void running_sum(float* dst, const float* src, int time_stride, int time_steps) {
    int step = blockDim.y * gridDim.z;
    int t = blockIdx.z * blockDim.y + threadIdx.y;
    int at = t * time_stride + threadIdx.x; // expect-label: unguarded-thread-index
    float current = t < time_steps ? src[at] : 0.f;
    for (; t < time_steps; t += step) {
        dst[t * time_stride + threadIdx.x] = current;
        at += time_stride * step;
        current += src[at]; // expect: unguarded-thread-index
    }
}

void sums(float* dst, const float* src, int time_steps, int head_dim) {
    dim3 grid(1, 1, (time_steps + 7) / 8);
    dim3 block(head_dim, 8);
    running_sum<<<grid, block>>>(dst, src, head_dim, time_steps); // expect-label: unguarded-thread-index
    CUDA_CHECK(cudaGetLastError());
}
