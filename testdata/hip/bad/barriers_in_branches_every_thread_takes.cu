// Bad: the groups are spread over blocks of 256 threads, the count rounded up: in the last block
// the threads past the last group skip the branch, and the barrier inside it waits for them.
#include <hip/hip_runtime.h>

__global__ void set_kernel_args(long* offsets, const long* sizes, int* nonempty, int group_count)
{
    const int group = blockIdx.x * blockDim.x + threadIdx.x;
    if (group < group_count) {
        __shared__ int counter;
        if (threadIdx.x == 0) counter = 0;
        offsets[group] = 0;
        __syncthreads(); // expect: divergent-barrier
        if (sizes[group] > 0) nonempty[atomicAdd(&counter, 1)] = group;
    }
}

void set_args(long* offsets, const long* sizes, int* nonempty, int group_count,
              hipStream_t stream)
{
    set_kernel_args<<<(group_count + 255) / 256, 256, 0, stream>>>(offsets, sizes, nonempty,
                                                                   group_count);
    if (hipGetLastError() != hipSuccess) return;
}
