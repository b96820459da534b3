// The project's launch macro: every kernel is launched through it, its name in parentheses,
// and the launch is checked right after.
#pragma once
#include <cuda_runtime.h>

#define KERNEL_CALL(kernel, nblks, nthrs, shmem, stream, ...)          \
  {                                                                    \
    if ((nblks) != 0 && (nthrs) != 0) {                                \
      (kernel)<<<(nblks), (nthrs), (shmem), (stream)>>>(__VA_ARGS__);  \
      cudaError_t e = cudaGetLastError();                              \
      if (e != cudaSuccess) return e;                                  \
    }                                                                  \
  }
