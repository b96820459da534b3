// Bad: the offsets are read at the count (they hold one entry more than the strings), but the
// lengths hold one entry per string: under `<=`, the thread at `i == num_strings` writes a
// length one past their end, and reads the offset after the last one.
#include <cuda_runtime.h>

__global__ void string_lengths(const int* offsets, int* lengths, int num_strings)
{
    const int start = blockIdx.x * blockDim.x;
    const int i = start + threadIdx.x;
    if (threadIdx.x == 0 && start + blockDim.x > num_strings) {
        lengths[0] += offsets[num_strings] - offsets[start];
    }
    if (i <= num_strings) {
        lengths[i] = offsets[i + 1] - offsets[i]; // expect: out-of-range-access, out-of-range-access
    }
}

void lengths_of(const int* offsets, int* lengths, int num_strings, cudaStream_t stream)
{
    const int block = 256;
    const int grid = (num_strings + block - 1) / block;
    string_lengths<<<grid, block, 0, stream>>>(offsets, lengths, num_strings);
    if (cudaGetLastError() != cudaSuccess) return;
}
