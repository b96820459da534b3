// Bad: the roadmap's neighbour search starts from a local flag set to `false`, but a macro
// the program calls sets it from the command line, so the GPU path runs, and its two buffers
// are never freed.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void nearest(const float* __restrict__ xyz, int* __restrict__ best, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) best[i] = xyz[i] > 0.f ? i : -1;
}

#define READ_DEVICE_OPTION() parallel = argc > 1

static int nearest_on_cpu(const float* xyz, int n) {
    int found = 0;
    for (int i = 0; i < n; ++i) found += xyz[i] > 0.f;
    return found;
}

int main(int argc, char**) {
    const int n = 4096;
    static float xyz[n];
    bool parallel = false;
    READ_DEVICE_OPTION();
    if (!parallel) {
        return nearest_on_cpu(xyz, n) > n ? 1 : 0;
    } else {
        float* d_xyz = nullptr;
        int* d_best = nullptr;
        HIP_CHECK(hipMalloc(&d_xyz, sizeof(float) * n)); // expect: device-memory-leak
        HIP_CHECK(hipMalloc(&d_best, sizeof(int) * n)); // expect: device-memory-leak
        HIP_CHECK(hipMemcpy(d_xyz, xyz, sizeof(float) * n, hipMemcpyHostToDevice));
        hipLaunchKernelGGL(nearest, (n + 255) / 256, 256, 0, 0, d_xyz, d_best, n);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
    }
    return 0;
}
