// Clean: string offsets hold one entry more than the strings (the end of the last string). The
// first thread of each block loads the block's closing offset, `offsets[start + blockDim.x]`
// while that is at most the count, and `offsets[num_strings]` otherwise: the kernel itself reads
// the offsets at the count, so `<=` is their bound.
#include <hip/hip_runtime.h>

__global__ void string_lengths(const int* offsets, int* lengths, int num_strings)
{
    extern __shared__ int block_offsets[];
    const int start = blockIdx.x * blockDim.x;
    const int i = start + threadIdx.x;
    if (i < num_strings) block_offsets[threadIdx.x] = offsets[i];
    if (threadIdx.x == 0) {
        if (start + blockDim.x <= num_strings) {
            block_offsets[blockDim.x] = offsets[start + blockDim.x];
        } else {
            block_offsets[num_strings - start] = offsets[num_strings];
        }
    }
    __syncthreads();
    if (i < num_strings) lengths[i] = block_offsets[threadIdx.x + 1] - block_offsets[threadIdx.x];
}

void lengths_of(const int* offsets, int* lengths, int num_strings, hipStream_t stream)
{
    const int block = 256;
    const int grid = (num_strings + block - 1) / block;
    string_lengths<<<grid, block, (block + 1) * sizeof(int), stream>>>(offsets, lengths,
                                                                      num_strings);
    if (hipGetLastError() != hipSuccess) return;
}
