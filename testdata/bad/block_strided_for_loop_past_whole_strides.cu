// Bad: the counter is declared before a `for` with no initializer and the loop runs to the whole
// count, not to a multiple of the block: on the last trip only the threads below the remainder
// enter, and the barriers inside wait for threads that left the loop.
#include <cuda_runtime.h>

__global__ void shift_strides(unsigned* hist, unsigned blocks)
{
    __shared__ unsigned s[128];
    unsigned i = threadIdx.x;
    for (; i < blocks; i += blockDim.x) {
        s[threadIdx.x] = hist[i];
        __syncthreads(); // expect: divergent-barrier
        hist[i] = s[(threadIdx.x + 1) % blockDim.x];
        __syncthreads(); // expect: divergent-barrier
    }
}

void shift(unsigned* hist, unsigned blocks)
{
    shift_strides<<<1, 128>>>(hist, blocks);
    if (cudaGetLastError() != cudaSuccess) return;
}
