// Bad: the label below the second free does not excuse it: the success path frees `values`
// twice before the label is reached, so the second `hipFree` fails (or releases memory that
// another allocation got meanwhile).
#include <hip/hip_runtime.h>
#include "hip_check.h"

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
    CHK(hipMalloc((void **)&values, n * sizeof(float)) == hipSuccess, err);
    CHK(hipMemset(values, 0, n * sizeof(float)) == hipSuccess, err);
    scale<<<(n + 255) / 256, 256>>>(n, 2.0f, values);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(values));
    HIP_CHECK(hipFree(values)); // expect: double-free
    return 0;

err:
    return 1;
}
