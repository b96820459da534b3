// The project's allocation macros, included by every translation unit before the gate headers.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CUDA_SAFE_CALL(err) safe_call((err), __FILE__, __LINE__)
inline void safe_call(cudaError_t err, const char* file, int line) {
    if (err != cudaSuccess) {
        fprintf(stderr, "%s:%d %s\n", file, line, cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}
#define SAFE_ALLOC_GPU(X, Y) CUDA_SAFE_CALL(cudaMalloc((void**)&(X), (Y)))
