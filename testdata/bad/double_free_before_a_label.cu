// Bad: the label below the second free does not excuse it: the success path frees `values`
// twice before the label is reached, so the second `cudaFree` fails (or releases memory that
// another allocation got meanwhile).
#include <cuda_runtime.h>
#include "cuda_check.h"

#define CHK(stmt, label) do { if (!(stmt)) goto label; } while (0)

__global__ void scale(int n, float factor, float *values)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        values[i] *= factor;
}

int main()
{
    const int n = 1 << 16;
    float *values = NULL;
    CHK(cudaMalloc((void **)&values, n * sizeof(float)) == cudaSuccess, err);
    CHK(cudaMemset(values, 0, n * sizeof(float)) == cudaSuccess, err);
    scale<<<(n + 255) / 256, 256>>>(n, 2.0f, values);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(values));
    CUDA_CHECK(cudaFree(values)); // expect: double-free
    return 0;

err:
    return 1;
}
