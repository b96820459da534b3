// Bad (project): ../include/solver_limits.h lets up to 32 * 4096 = 131072 rows through, twice
// what grid y holds; and the bound of the second launch depends on the compiler's version.
#include <cuda_runtime.h>
#include "solver_config.h"

__global__ void row_sums(const float* in, float* out, int cols) {
    int row = blockIdx.y;
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += in[row * cols + c];
    atomicAdd(&out[row], sum);
}

int launch_row_sums(const float* in, float* out, int rows, int cols) {
    if (rows > MAX_ROWS) return 1;
    row_sums<<<dim3(1, rows), 256>>>(in, out, cols); // expect: invalid-launch-config
    return cudaGetLastError() != cudaSuccess;
}

int launch_column_sums(const float* in, float* out, int rows, int cols) {
    if (rows > MAX_COLUMN_ROWS) return 1;
    row_sums<<<dim3(1, rows), 256>>>(in, out, cols); // expect: invalid-launch-config
    return cudaGetLastError() != cudaSuccess;
}
