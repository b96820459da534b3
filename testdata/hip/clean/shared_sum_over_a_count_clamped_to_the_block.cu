// Clean: one thread of each block sums the values its block copied into shared memory. The
// count is what is left of the array past the block's start, clamped to the block's width by
// `if (mxm > mx) mxm = mx;`, so the serial loop never reads past the block's `blockDim.x`
// floats of dynamic shared memory.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void block_sums(const float* __restrict__ a, float* __restrict__ sa, int nx) {
    extern __shared__ float s[];
    const int mx = blockDim.x;
    const int js = threadIdx.x;
    const int joff = mx * blockIdx.x;
    const int j = js + joff;
    if (j < nx) s[js] = a[j];
    __syncthreads();
    if (js == 0) {
        int mxm = nx - joff;
        if (mxm > mx) mxm = mx;
        float t = 0.0f;
        for (int k = 0; k < mxm; k++) t += s[k];
        atomicAdd(&sa[0], t);
    }
}

int main() {
    const int nx = 1000, block = 128;
    float* a = nullptr;
    float* sa = nullptr;
    HIP_CHECK(hipMalloc(&a, sizeof(float) * nx));
    HIP_CHECK(hipMalloc(&sa, sizeof(float)));
    HIP_CHECK(hipMemset(a, 0, sizeof(float) * nx));
    HIP_CHECK(hipMemset(sa, 0, sizeof(float)));
    hipLaunchKernelGGL(block_sums, (nx + block - 1) / block, block, block * sizeof(float), 0, a, sa, nx);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(sa));
    HIP_CHECK(hipFree(a));
    return 0;
}
