// Bad: code after a launch that looks like a check but tests something else: an assertion on a
// size, a check of a condition, a routine that verifies results. None reads the launch's error.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "check failed: %s\n", #cond);                     \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

__global__ void fill(int* out, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}

static bool check_results(const int* h, int value, int n) {
    for (int i = 0; i < n; ++i) {
        if (h[i] != value) return false;
    }
    return true;
}

void fill_and_assert(int* d, int n) {
    hipLaunchKernelGGL(fill, (n + 255) / 256, 256, 0, 0, d, 7, n); // expect: unchecked-kernel-launch
    assert(n > 0);
}

void fill_and_check_condition(int* d, int n, int blocks) {
    hipLaunchKernelGGL(fill, blocks, 256, 0, 0, d, 8, n); // expect: unchecked-kernel-launch
    CHECK(blocks * 256 >= n);
}

bool fill_and_verify(int* d, int* h, int n) {
    hipLaunchKernelGGL(fill, (n + 255) / 256, 256, 0, 0, d, 9, n); // expect: unchecked-kernel-launch
    hipMemcpy(h, d, n * sizeof(int), hipMemcpyDeviceToHost); // expect: unchecked-cuda-call
    return check_results(h, 9, n);
}
