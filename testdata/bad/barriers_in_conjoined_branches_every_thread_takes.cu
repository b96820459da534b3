// Bad: the same tiled transpose over a grid rounded up on both axes: in the blocks on the
// matrix's right and bottom edges the threads past `N` or `M` skip the branch, and the barrier
// inside it waits for them.
#include <cuda_runtime.h>

__global__ void transpose_tiles(const int* in, int M, int N, int* out)
{
    __shared__ int tile[32][33];
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        tile[threadIdx.y][threadIdx.x] = in[row * N + col];
        __syncthreads(); // expect: divergent-barrier
        out[col * M + row] = tile[threadIdx.y][threadIdx.x];
    }
}

void transpose(const int* in, int* out, int M, int N, cudaStream_t stream)
{
    dim3 block(32, 32);
    dim3 grid((N + 31) / 32, (M + 31) / 32);
    transpose_tiles<<<grid, block, 0, stream>>>(in, M, N, out);
    if (cudaGetLastError() != cudaSuccess) return;
}
