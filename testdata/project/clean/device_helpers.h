// Device helpers shared by the project's kernels (read, not linted: a `.h` file).
#pragma once

__device__ inline int flat(int row, int col, int width) { return row * width + col; }

__device__ inline void put_checked(float* p, int i, int n, float v) {
    if (i < n) p[i] = v;
}
