// Backward induction over a binomial tree: the option values of one level live in `n + 1`
// doubles, and each step computes level `l - 1` from level `l`, the threads past the new level
// leaving at once. The level passed is at most `n - 1` (the counter is declared `n` and only
// ever made smaller), so `values[t + 1]` under `t <= level` stays inside the `n + 1` doubles.
#include <cmath>
#include <utility>
#include "hip_check.h"

__global__ void step_back(const double* values, double* next, double up, double down,
                          int level) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t > level) return;
    next[t] = up * values[t + 1] + down * values[t];
}

__global__ void steps_back(const double* values, double* next, double up, double down,
                           int level) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t > level) return;
    double a = up * values[t + 2] + down * values[t + 1];
    double b = up * values[t + 1] + down * values[t];
    next[t] = up * a + down * b;
}

double price(int n, double up, double down, const double* leaves) {
    const int threads = 128;
    double *values, *next;
    HIP_CHECK(hipMalloc(&values, (n + 1) * sizeof(double)));
    HIP_CHECK(hipMalloc(&next, (n + 1) * sizeof(double)));
    HIP_CHECK(hipMemcpy(values, leaves, (n + 1) * sizeof(double), hipMemcpyHostToDevice));
    int level = n;
    for (; level >= 2; level -= 2) {
        int blocks = std::ceil((level - 1) * 1.0 / threads);
        steps_back<<<blocks, threads>>>(values, next, up, down, level - 2);
        HIP_CHECK(hipGetLastError());
        std::swap(values, next);
    }
    for (; level >= 1; level--) {
        int blocks = std::ceil(level * 1.0 / threads);
        step_back<<<blocks, threads>>>(values, next, up, down, level - 1);
        HIP_CHECK(hipGetLastError());
        std::swap(values, next);
    }
    double root = 0;
    HIP_CHECK(hipMemcpy(&root, values, sizeof(double), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(values));
    HIP_CHECK(hipFree(next));
    return root;
}

// the same sweep written forwards: `level < n` keeps the counter at most `n - 1`
void run_forward(int n) {
    double *values, *next;
    HIP_CHECK(hipMalloc(&values, (n + 1) * sizeof(double)));
    HIP_CHECK(hipMalloc(&next, (n + 1) * sizeof(double)));
    HIP_CHECK(hipMemset(values, 0, (n + 1) * sizeof(double)));
    for (int level = 0; level < n; ++level) {
        step_back<<<(level + 128) / 128, 128>>>(values, next, 0.5, 0.5, level);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipFree(values));
    HIP_CHECK(hipFree(next));
}
