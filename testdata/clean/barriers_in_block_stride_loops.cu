// Block-wide scans over a row, one block per row, the loop stepping by the block's width. Every
// thread starts below the step and the loop's limit is a multiple of it, so each thread of a
// block runs the same trips and meets every barrier with the others:
// - the limit is rounded up from the block's own row (`end` differs between blocks, not
//   within one), and a second `end` declared later in the kernel is another local;
// - the step is the template's block size, which every launch gives the block;
// - a test of the loop variable against the step itself (`i >= BLOCK_DIM`, every trip after the
//   first) has one outcome per trip for the whole block.
#include <cub/cub.cuh>

template <int BLOCK_DIM>
__global__ void compact_lengths(int* totals, const int* lengths)
{
    typedef cub::BlockReduce<int, BLOCK_DIM> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    const int row = blockIdx.x;
    int end = (row + BLOCK_DIM - 1) / BLOCK_DIM * BLOCK_DIM;
    int count = 0;
    for (int i = threadIdx.x; i < end; i += blockDim.x) {
        int x = i < row ? lengths[i] : 0;
        count += BlockReduce(temp_storage).Sum(x);
        __syncthreads();
    }
    if (threadIdx.x == 0) totals[row] = count;
}

template <int BLOCK_SIZE>
__global__ void sample_rows(const float* probs, const int* kept, int* picked, float* top,
                            int stride)
{
    const int tid = threadIdx.x;
    const int n = kept[blockIdx.x];
    probs += stride * blockIdx.x;
    int end = (n + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
    for (int i = tid; i < end; i += BLOCK_SIZE) {
        const float p = i < n ? probs[i] : 0.f;
        const int over = __syncthreads_count(p > 0.5f);
        if (over != 0) {
            if (tid == 0) picked[blockIdx.x] = i;
            break;
        }
    }
    if (top != nullptr) {
        __syncthreads();
        int end = min(n, 8);
        for (int i = tid; i < end; i += BLOCK_SIZE) top[blockIdx.x * 8 + i] = probs[i];
    }
}

template <int BLOCK_DIM>
__global__ void prefix_sums(const int* src, int* dst, int n)
{
    using BlockScan = cub::BlockScan<int, BLOCK_DIM>;
    __shared__ typename BlockScan::TempStorage temp_storage;
    int prefix = 0;
    for (int i = threadIdx.x; i < (n + BLOCK_DIM - 1) / BLOCK_DIM * BLOCK_DIM; i += BLOCK_DIM) {
        if (i >= BLOCK_DIM) {
            __syncthreads();
        }
        int data = i < n ? src[i] : 0;
        int sum = 0;
        BlockScan(temp_storage).ExclusiveSum(data, data, sum);
        if (i < n) dst[i] = prefix + data;
        prefix += sum;
    }
}

void run(int* totals, const int* lengths, const float* probs, const int* kept, int* picked,
         float* top, const int* src, int* dst, int rows, int stride, int n, cudaStream_t stream)
{
    constexpr int kBlock = 128;
    compact_lengths<kBlock><<<rows, kBlock, 0, stream>>>(totals, lengths);
    const int block = 256;
    sample_rows<block><<<rows, block, 0, stream>>>(probs, kept, picked, top, stride);
    prefix_sums<256><<<1, 256, 0, stream>>>(src, dst, n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return;
}
