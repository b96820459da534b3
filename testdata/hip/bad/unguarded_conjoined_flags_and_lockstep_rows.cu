// Bad: the row test of a flag that only some paths conjoin, a row index that drifts from the
// tested row because the two are stepped by different amounts, and a flag declared once before
// a loop whose row moves on after it was tested.
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
            // `tile_row` moves twice as fast as `row`: the row written runs ahead of the tested one
            int out = blockIdx.x * kTileRows + tile_row;
            scales[out] = 1.0f / fmaxf(amax[out], 1e-12f); // expect: unguarded-thread-index
        }
        tile_row += 2 * kRowStep;
        row += kRowStep;
    }
}

__global__ void column_scales(const float* amax, float* scales, int num_cols, int checked) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    bool write = threadIdx.y == 0;
    // conjoined only when `checked` is set: elsewhere the flag says nothing of `col`
    if (checked) write &= (col < num_cols);
    if (write) {
        scales[col] = 1.0f / fmaxf(amax[col], 1e-12f); // expect: unguarded-thread-index
    }
}

__global__ void tile_scales(const float* amax, float* row_scales, int num_rows) {
    int row = blockIdx.x * kTileRows + threadIdx.x / kLanesPerRow;
    bool write = threadIdx.x % kLanesPerRow == 0;
    write &= (row < num_rows);
    for (int it = 0; it < kTileRows / kRowStep; ++it) {
        if (write) {
            // tested on the first trip only: later rows pass `num_rows` in the last tile
            row_scales[row] = 1.0f / fmaxf(amax[row], 1e-12f); // expect: unguarded-thread-index
        }
        row += kRowStep;
    }
}

hipError_t launch_scales(const float* row_amax, float* row_out, int rows,
                          const float* col_amax, float* col_out, int cols, hipStream_t stream) {
    row_scales<<<(rows + kTileRows - 1) / kTileRows, kThreads, 0, stream>>>(row_amax, row_out, rows);
    dim3 block(128, 2);
    column_scales<<<(cols + 127) / 128, block, 0, stream>>>(col_amax, col_out, cols, 0);
    tile_scales<<<(rows + kTileRows - 1) / kTileRows, kThreads, 0, stream>>>(row_amax, row_out, rows);
    return hipGetLastError();
}
