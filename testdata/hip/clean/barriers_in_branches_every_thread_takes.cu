// Clean: one block of exactly `group_count` threads sets up the arguments of a grouped GEMM; the
// branch on the thread's group is taken by every thread of that launch, so each one reaches the
// barrier inside it.
#include <hip/hip_runtime.h>

__global__ void set_kernel_args(long* offsets, const long* sizes, int* nonempty, long group_count)
{
    const unsigned group = blockIdx.x * blockDim.x + threadIdx.x;
    if (group < group_count) {
        __shared__ int counter;
        if (group == 0) counter = 0;
        offsets[group] = 0;
        __syncthreads();
        if (sizes[group] > 0) nonempty[atomicAdd(&counter, 1)] = group;
    }
}

void set_args(long* offsets, const long* sizes, int* nonempty, long group_count,
              hipStream_t stream)
{
    set_kernel_args<<<1, group_count, 0, stream>>>(offsets, sizes, nonempty, group_count);
    if (hipGetLastError() != hipSuccess) return;
}
