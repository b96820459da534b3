// Calls the launchers of kernels.cu: the first two calls of `launch_saxpy` check right after
// it, the third does not.
#include <cstdio>
#include <cstdlib>
#include "kernels.h"

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s'\n", cudaGetErrorString(err_));   \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

int main() {
    const int n = 1 << 16;
    float *x = nullptr, *y = nullptr;
    CUDA_CHECK(cudaMalloc(&x, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&y, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(x, 0, n * sizeof(float)));
    launch_clear(y, n, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    launch_saxpy(2.0f, x, y, n, 0);
    CUDA_CHECK(cudaGetLastError());
    launch_saxpy(3.0f, x, y, n, 0);
    CUDA_CHECK(cudaGetLastError());
    launch_saxpy(4.0f, x, y, n, 0); // expect: unchecked-kernel-launch
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(x));
    CUDA_CHECK(cudaFree(y));
    return 0;
}
