#include <cstdio>
#include <cuda_runtime.h>
#include "shift.h"

int main() {
    const int n = 1000;
    float* values = nullptr;
    if (cudaMalloc(&values, n * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(values, 0, n * sizeof(float)) != cudaSuccess) return 1;
    shift<<<(n + 255) / 256, 256>>>(values, n, 1.0f);
    if (cudaGetLastError() != cudaSuccess) printf("launch failed\n");
    if (cudaFree(values) != cudaSuccess) return 1;
    return 0;
}
