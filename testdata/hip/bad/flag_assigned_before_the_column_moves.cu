// Bad: the flag holds the bounds test of the column as it was; the column then moves one to the
// right, so the last column's thread writes one element past its row (and past the end of the
// buffer in the last row).
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void shift_right(int height, int width, const float *in, float *out)
{
    bool valid = false;
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    int h = blockIdx.y;
    valid = (w < width) && (h < height);
    w += 1;
    if (valid)
        out[h * width + w] = in[h * width + w - 1]; // expect: unguarded-thread-index
}

int main()
{
    const int height = 64, width = 1000;
    float *in, *out;
    HIP_CHECK(hipMalloc(&in, sizeof(float) * height * width));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * height * width));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * height * width));
    shift_right<<<dim3((width + 255) / 256, height), 256>>>(height, width, in, out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    return 0;
}
