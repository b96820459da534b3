// An older copy of reduce.cuh that no file includes: the same kernel, launched as the build launches that one.
#pragma once

template <typename T, int SPLITS, int D>
__global__ void reduce_splits(const T* src, const T* weights, T* dst, int heads) {
    int row = blockIdx.x * heads + blockIdx.y;
    int tid = threadIdx.x;
    T acc = 0;
    for (int i = 0; i < SPLITS; ++i) {
        acc += src[(row * SPLITS + i) * D + tid] * weights[row * SPLITS + i];
    }
    dst[row * D + tid] = acc;
}
