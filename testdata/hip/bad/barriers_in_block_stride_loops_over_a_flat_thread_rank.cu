// Bad: the block is 32×16, 512 threads, but the loop steps by 256: the threads of rank 256 and
// above start one step in, make one trip fewer than the others and miss the barriers of the
// last trip, where the rest of the block waits for them.
#include <hip/hip_runtime.h>

#define HIST_SIZE 65536
#define BLOCK_SIZE 256

__global__ void clip_histograms(const int* hist, int clip_limit, int* excess)
{
    __shared__ int partial[32];
    const unsigned int tid = threadIdx.y * blockDim.x + threadIdx.x;
    int total = 0;
    for (int i = tid; i < HIST_SIZE; i += BLOCK_SIZE) {
        const int count = hist[blockIdx.x * HIST_SIZE + i];
        const int clipped = count > clip_limit ? count - clip_limit : 0;
        if (tid % 32 == 0) partial[tid / 32] = clipped;
        __syncthreads(); // expect: divergent-barrier
        if (tid == 0) {
            for (int k = 0; k < blockDim.x * blockDim.y / 32; ++k) total += partial[k];
        }
        __syncthreads(); // expect: divergent-barrier
    }
    if (tid == 0) excess[blockIdx.x] = total;
}

void clip(const int* hist, int clip_limit, int* excess, int tiles, hipStream_t stream)
{
    const dim3 block(32, 16);
    clip_histograms<<<tiles, block, 0, stream>>>(hist, clip_limit, excess);
    if (hipGetLastError() != hipSuccess) return;
}
