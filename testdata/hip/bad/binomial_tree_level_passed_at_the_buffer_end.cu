// Backward induction that passes the level it reads rather than the one it writes: with
// `level` up to `n`, the thread `t == level` reads `values[level + 1]`, one past the `n + 1`
// doubles of a level.
#include <cmath>
#include <utility>
#include "hip_check.h"

__global__ void step_back(const double* values, double* next, double up, double down,
                          int level) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t > level) return;
    next[t] = up * values[t + 1] + down * values[t]; // expect: out-of-range-access
}

double price(int n, double up, double down, const double* leaves) {
    const int threads = 128;
    double *values, *next;
    HIP_CHECK(hipMalloc(&values, (n + 1) * sizeof(double)));
    HIP_CHECK(hipMalloc(&next, (n + 1) * sizeof(double)));
    HIP_CHECK(hipMemcpy(values, leaves, (n + 1) * sizeof(double), hipMemcpyHostToDevice));
    for (int level = n; level >= 1; level--) {
        int blocks = std::ceil(level * 1.0 / threads);
        step_back<<<blocks, threads>>>(values, next, up, down, level);
        HIP_CHECK(hipGetLastError());
        std::swap(values, next);
    }
    double root = 0;
    HIP_CHECK(hipMemcpy(&root, values, sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(values));
    HIP_CHECK(hipFree(next));
    return root;
}
