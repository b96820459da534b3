// Device helpers shared by the project's kernels. A `.h` file is not linted by default: it is
// read for what it offers the files that include it.
#pragma once

__device__ inline void put(float* p, int i, float v) { p[i] = v; }

__device__ inline int flat(int row, int col, int width) { return row * width + col; }
