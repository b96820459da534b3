// Clean (project): the buffers are padded to a multiple of the pad width, which is the block size
// that ../include/solver_config.h chooses by an #ifdef chain (128 in a build without -D), and the
// grid covers exactly the padded count, so no thread runs past the buffers.
#include <algorithm>
#include <cuda_runtime.h>
#include "solver_config.h"

#ifndef pad_width
#define pad_width 128
#endif

__global__ void fill_components(const int padded, float* values, const float* initial) {
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    for (int c = 0; c < COMPONENTS; c++)
        values[i + c * padded] = initial[c];
}

int fill_solver_state(int count, const float* initial, float** out) {
    int padded;
    padded = pad_width * ((count / pad_width) + std::min(1, count % pad_width));
    float* values;
    if (cudaMalloc((void**)&values, sizeof(float) * padded * COMPONENTS) != cudaSuccess) return 1;
    dim3 grid((padded + FILL_BLOCK - 1) / FILL_BLOCK);
    fill_components<<<grid, FILL_BLOCK>>>(padded, values, initial);
    if (cudaGetLastError() != cudaSuccess) {
        cudaFree(values);
        return 1;
    }
    *out = values;
    return 0;
}
