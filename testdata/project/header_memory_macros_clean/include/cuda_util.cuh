#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define cudaSafeCall(err) __cudaSafeCall(err, __FILE__, __LINE__)
inline void __cudaSafeCall(cudaError err, const char *file, const int line)
{
    if (cudaSuccess != err) fprintf(stderr, "%s:%i %s\n", file, line, cudaGetErrorString(err));
}
#define SAFE_ALOC_GPU(X, Y) cudaSafeCall(cudaMalloc((void **)&(X), (Y)));
#define SAFE_FREE_GPU(X)                  \
    if ((X) != NULL) {                    \
        cudaSafeCall(cudaFree((X)));      \
        (X) = NULL;                       \
    }
