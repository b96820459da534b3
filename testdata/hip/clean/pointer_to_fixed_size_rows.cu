// Clean: a pointer to rows of four indices, `unsigned (*d_rows)[4]`, is a pointer the host
// allocates on the device and copies into, not a stack array of four pointers.
#include "hip_check.h"

__global__ void sum_rows(const unsigned (*rows)[4], int count, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        out[i] = (float)(rows[i][0] + rows[i][1] + rows[i][2] + rows[i][3]);
    }
}

void sums(const unsigned (*h_rows)[4], int count, float* h_out) {
    unsigned (*d_rows)[4] = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_rows, count * sizeof(*d_rows)));
    HIP_CHECK(hipMalloc(&d_out, count * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_rows, h_rows, count * sizeof(*d_rows), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(sum_rows, (count + 127) / 128, 128, 0, 0, d_rows, count, d_out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_out, d_out, count * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_rows));
    HIP_CHECK(hipFree(d_out));
}
