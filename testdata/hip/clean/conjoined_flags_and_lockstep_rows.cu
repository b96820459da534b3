// Per-row scale factors of a matrix quantized in tiles of 128 rows. Each thread handles every
// 32nd row of its tile: the row in the matrix and the row in the tile are stepped together, and
// the bound is tested on one of them while the store is indexed by the other. The writer lane is
// chosen by a flag that the row test is conjoined to (`&=`, `= flag && ...`) on every path; the
// two passes of `tile_scales` declare such a flag of one name each, inside the loop, before the
// row moves on.
#include <hip/hip_runtime.h>

constexpr int kTileRows = 128;
constexpr int kThreads = 256;
constexpr int kLanesPerRow = 8;
constexpr int kRowStep = kThreads / kLanesPerRow;

__global__ void row_scales(const float* amax, float* scales, int num_rows) {
    int tile_row = threadIdx.x / kLanesPerRow;
    int row = blockIdx.x * kTileRows + tile_row;
    const bool writer = threadIdx.x % kLanesPerRow == 0;
    for (int it = 0; it < kTileRows / kRowStep; ++it) {
        if (writer && row < num_rows) {
            // the same row, written from the tile's origin and the row within the tile
            int out = blockIdx.x * kTileRows + tile_row;
            scales[out] = 1.0f / fmaxf(amax[out], 1e-12f);
        }
        tile_row += kRowStep;
        row += kRowStep;
    }
}

__global__ void column_scales(const float* amax, float* scales, int num_cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    bool write = threadIdx.y == 0;
    write &= (col < num_cols);
    if (write) {
        scales[col] = 1.0f / fmaxf(amax[col], 1e-12f);
    }
}

__global__ void column_scales_and(const float* amax, float* scales, int num_cols) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    bool write = threadIdx.y == 0;
    write = write && col < num_cols;
    if (write) {
        scales[col] = 1.0f / fmaxf(amax[col], 1e-12f);
    }
}

__global__ void tile_scales(const float* amax, float* row_scales, float* col_scales, int num_rows,
                            int num_cols) {
    {
        int row = blockIdx.x * kTileRows + threadIdx.x / kLanesPerRow;
        for (int it = 0; it < kTileRows / kRowStep; ++it) {
            bool write = threadIdx.x % kLanesPerRow == 0;
            write &= (row < num_rows);
            if (write) {
                row_scales[row] = 1.0f / fmaxf(amax[row], 1e-12f);
            }
            row += kRowStep;
        }
    }
    {
        int col = blockIdx.x * kTileRows + threadIdx.x / kLanesPerRow;
        for (int it = 0; it < kTileRows / kRowStep; ++it) {
            bool write = threadIdx.x % kLanesPerRow == 0;
            write &= (col < num_cols);
            if (write) {
                col_scales[col] = 1.0f / fmaxf(amax[col], 1e-12f);
            }
            col += kRowStep;
        }
    }
}

hipError_t launch_scales(const float* row_amax, float* row_out, int rows,
                          const float* col_amax, float* col_out, int cols, hipStream_t stream) {
    hipLaunchKernelGGL(row_scales, (rows + kTileRows - 1) / kTileRows, kThreads, 0, stream, row_amax, row_out, rows);
    dim3 block(128, 2);
    hipLaunchKernelGGL(column_scales, (cols + 127) / 128, block, 0, stream, col_amax, col_out, cols);
    hipLaunchKernelGGL(column_scales_and, (cols + 127) / 128, block, 0, stream, col_amax, col_out, cols);
    const int longest = rows > cols ? rows : cols;
    const int tiles = (longest + kTileRows - 1) / kTileRows;
    hipLaunchKernelGGL(tile_scales, tiles, kThreads, 0, stream, row_amax, row_out, col_out, rows, cols);
    return hipGetLastError();
}
