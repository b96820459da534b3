// Bad (project): launched through ../kernel_call.h's KERNEL_CALL with a grid rounded up over
// the column count, and no guard: the threads of the last block past `cols` read and write
// out of bounds.
#include "kernel_call.h"

template <typename IdType>
__global__ void count_cols(const IdType* col, IdType* counts, int cols) {
  const int tx = blockIdx.x * blockDim.x + threadIdx.x;
  counts[tx] = col[tx] + 1; // expect: unguarded-thread-index
}

cudaError_t run_count_cols(const int* col, int* counts, int cols, cudaStream_t stream) {
  const int threads = 256;
  const int blocks = (cols + threads - 1) / threads;
  KERNEL_CALL((count_cols<int>), blocks, threads, 0, stream, col, counts, cols);
  return cudaSuccess;
}
