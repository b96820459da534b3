// The same scans where the trips differ inside a block:
// - the limit is the row's length itself, not rounded to the step: the threads past the
//   remainder leave the loop one trip early, while the others wait at the barrier;
// - the launch's block is twice the template's step: the second half of the block starts one
//   step in, so it crosses the limit one trip before the first half;
// - the test inside the loop is against half the step: on the first trip only the threads of
//   the upper half of the block reach the barrier.
#include <cub/cub.cuh>

template <int BLOCK_DIM>
__global__ void compact_lengths(int* totals, const int* lengths, int n)
{
    typedef cub::BlockReduce<int, BLOCK_DIM> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;
    int count = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        count += BlockReduce(temp_storage).Sum(lengths[i]);
        __syncthreads(); // expect: divergent-barrier
    }
    if (threadIdx.x == 0) totals[blockIdx.x] = count;
}

template <int BLOCK_SIZE>
__global__ void sample_rows(const float* probs, const int* kept, int* picked, int stride)
{
    const int tid = threadIdx.x;
    const int n = kept[blockIdx.x];
    probs += stride * blockIdx.x;
    int end = (n + BLOCK_SIZE - 1) / BLOCK_SIZE * BLOCK_SIZE;
    for (int i = tid; i < end; i += BLOCK_SIZE) {
        const float p = i < n ? probs[i] : 0.f;
        const int over = __syncthreads_count(p > 0.5f); // expect: divergent-barrier
        if (over != 0) {
            if (tid == 0) picked[blockIdx.x] = i;
            break;
        }
    }
}

template <int BLOCK_DIM>
__global__ void prefix_sums(const int* src, int* dst, int n)
{
    using BlockScan = cub::BlockScan<int, BLOCK_DIM>;
    __shared__ typename BlockScan::TempStorage temp_storage;
    int prefix = 0;
    for (int i = threadIdx.x; i < (n + BLOCK_DIM - 1) / BLOCK_DIM * BLOCK_DIM; i += BLOCK_DIM) {
        if (i >= BLOCK_DIM / 2) {
            __syncthreads(); // expect: divergent-barrier
        }
        int data = i < n ? src[i] : 0;
        int sum = 0;
        BlockScan(temp_storage).ExclusiveSum(data, data, sum);
        if (i < n) dst[i] = prefix + data;
        prefix += sum;
    }
}

void run(int* totals, const int* lengths, const float* probs, const int* kept, int* picked,
         const int* src, int* dst, int rows, int stride, int n, cudaStream_t stream)
{
    constexpr int kBlock = 128;
    compact_lengths<kBlock><<<rows, kBlock, 0, stream>>>(totals, lengths, n);
    sample_rows<128><<<rows, 256, 0, stream>>>(probs, kept, picked, stride);
    prefix_sums<256><<<1, 256, 0, stream>>>(src, dst, n);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return;
}
