// A header no file includes, whose kernel no file launches under any definition: a library
// kernel, read as one.
#pragma once

__global__ void scale_rows_old(float* out, const float* in, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * factor; // expect: unguarded-thread-index
}
