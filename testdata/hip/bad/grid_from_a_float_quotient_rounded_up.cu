// Bad: the same interior kernel, launched with the float quotient rounded up. When 24 does not
// divide `nx - 8`, the last blocks' threads reach past the interior, and those of the last row
// of blocks past the end of the buffers.
#include <cmath>
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void strain_from_displacement(int nxpad, int nzpad, const float *ux, float *strain,
                                         float inverse_dx)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int z = threadIdx.y + blockIdx.y * blockDim.y;
    int at = (z + 4) * nxpad + x + 4;
    strain[at] = (ux[at + 1] - ux[at - 1]) * inverse_dx; // expect: unguarded-thread-index
}

int main()
{
    int nxpad = 8 + 250, nzpad = 8 + 250;
    size_t bytes = sizeof(float) * nxpad * nzpad;
    float *ux, *strain;
    HIP_CHECK(hipMalloc(&ux, bytes));
    HIP_CHECK(hipMalloc(&strain, bytes));
    HIP_CHECK(hipMemset(ux, 0, bytes));
    dim3 grid(ceil((nxpad - 8) / 24.0f), ceil((nzpad - 8) / 24.0f));
    dim3 block(24, 24, 1);
    strain_from_displacement<<<grid, block>>>(nxpad, nzpad, ux, strain, 1.0f);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(ux));
    HIP_CHECK(hipFree(strain));
    return 0;
}
