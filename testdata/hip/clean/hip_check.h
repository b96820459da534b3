// Shared error-checking helper for the clean fixtures (not itself a fixture).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' (%d) at %s:%d\n",                \
                    hipGetErrorString(err_), static_cast<int>(err_),         \
                    __FILE__, __LINE__);                                      \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)
