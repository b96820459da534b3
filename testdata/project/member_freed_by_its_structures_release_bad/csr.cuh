// A sparse matrix in CSR form, with tiles, whose release function frees only its tiles.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t status_ = (call);                                           \
        if (status_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status_));    \
            exit(EXIT_FAILURE);                                                 \
        }                                                                       \
    } while (0)

struct CSR {
    int rows;
    int* d_ptr;
    int* d_tile;
    void d_release_tile();
};
