// Clean: a tiled transpose whose only launch is exact on both axes (`N / 32` by `M / 32` blocks
// of 32x32 threads, the matrix a multiple of the tile): every thread passes `row < M && col < N`,
// so each one reaches the barrier inside the branch.
#include <cuda_runtime.h>

__global__ void transpose_tiles(const int* in, int M, int N, int* out)
{
    __shared__ int tile[32][33];
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        tile[threadIdx.y][threadIdx.x] = in[row * N + col];
        __syncthreads();
        const int out_row = blockIdx.x * blockDim.x + threadIdx.y;
        const int out_col = blockIdx.y * blockDim.y + threadIdx.x;
        out[out_row * M + out_col] = tile[threadIdx.x][threadIdx.y];
    }
}

void transpose(const int* in, int* out, int M, int N, cudaStream_t stream)
{
    dim3 block(32, 32);
    dim3 grid(N / 32, M / 32);
    transpose_tiles<<<grid, block, 0, stream>>>(in, M, N, out);
    if (cudaGetLastError() != cudaSuccess) return;
}
