// The twins of testdata/clean/tiles_stepped_together.cu with a test taken away, or the rows
// added at another width than the column is tested against.
#include <hip/hip_runtime.h>

#define TILE 16

// `q`'s column is never tested.
__global__ void column_dots_untested(const float* p, int p_cols, const float* q, int q_cols, int depth,
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
            q_tile[threadIdx.y][threadIdx.x] = q[qi + q_cols * threadIdx.y + threadIdx.x]; // expect: unguarded-thread-index
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

hipError_t launch_column_dots_untested(const float* p, int p_cols, const float* q, int q_cols,
                               int depth, float* dots, hipStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((q_cols + TILE - 1) / TILE, (p_cols + TILE - 1) / TILE);
    column_dots_untested<<<grid, block, 0, stream>>>(p, p_cols, q, q_cols, depth, dots);
    return hipGetLastError();
}


// `q`'s column is tested against `q_cols`, but its rows are added `TILE` wide.
__global__ void column_dots_tile_rows(const float* p, int p_cols, const float* q, int q_cols, int depth,
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
            q_tile[threadIdx.y][threadIdx.x] = q_column ? q[qi + TILE * threadIdx.y + threadIdx.x] : 0.0f; // expect: unguarded-thread-index
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

hipError_t launch_column_dots_tile_rows(const float* p, int p_cols, const float* q, int q_cols,
                               int depth, float* dots, hipStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((q_cols + TILE - 1) / TILE, (p_cols + TILE - 1) / TILE);
    column_dots_tile_rows<<<grid, block, 0, stream>>>(p, p_cols, q, q_cols, depth, dots);
    return hipGetLastError();
}
