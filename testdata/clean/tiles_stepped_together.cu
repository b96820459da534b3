// Two matrices walked down together in tiles, each by its own pitch: one loop variable is
// tested against the depth, the other starts at a column the thread tests with a flag, and both
// take only uniform steps. Every read stays inside the rows and columns its tests allow.
#include <cuda_runtime.h>

#define TILE 16

// Dot products of every column of `p` (p_cols wide) with every column of `q` (q_cols wide),
// both `depth` rows deep and stored row-major.
__global__ void column_dots(const float* p, int p_cols, const float* q, int q_cols, int depth,
                            float* dots)
{
    __shared__ float p_tile[TILE][TILE];
    __shared__ float q_tile[TILE][TILE];
    const int p_start = TILE * blockIdx.y;
    const int q_start = TILE * blockIdx.x;
    const int p_last = p_start + (depth - 1) * p_cols;
    const bool p_column = p_start + threadIdx.x < p_cols;
    const bool q_column = q_start + threadIdx.x < q_cols;
    const bool p_row_out = p_start + threadIdx.y < p_cols;
    float sum = 0.0f;
    for (int pi = p_start, qi = q_start; pi <= p_last; pi += TILE * p_cols, qi += TILE * q_cols) {
        if (pi / p_cols + threadIdx.y < depth) {
            p_tile[threadIdx.y][threadIdx.x] = p_column ? p[pi + p_cols * threadIdx.y + threadIdx.x] : 0.0f;
            q_tile[threadIdx.y][threadIdx.x] = q_column ? q[qi + q_cols * threadIdx.y + threadIdx.x] : 0.0f;
        } else {
            p_tile[threadIdx.y][threadIdx.x] = 0.0f;
            q_tile[threadIdx.y][threadIdx.x] = 0.0f;
        }
        __syncthreads();
        if (p_row_out && q_column) {
            for (int k = 0; k < TILE; ++k) {
                sum += p_tile[k][threadIdx.y] * q_tile[k][threadIdx.x];
            }
        }
        __syncthreads();
    }
    if (p_row_out && q_column) {
        dots[(p_start + threadIdx.y) * q_cols + q_start + threadIdx.x] = sum;
    }
}

cudaError_t launch_column_dots(const float* p, int p_cols, const float* q, int q_cols,
                               int depth, float* dots, cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((q_cols + TILE - 1) / TILE, (p_cols + TILE - 1) / TILE);
    column_dots<<<grid, block, 0, stream>>>(p, p_cols, q, q_cols, depth, dots);
    return cudaGetLastError();
}
