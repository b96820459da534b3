// Clean: the GPU path of the roadmap's neighbour search sits behind a local flag set to `false`
// and never changed, so its allocations never run; the CPU path the program takes allocates
// nothing on the device.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void nearest(const float* __restrict__ xyz, int* __restrict__ best, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) best[i] = xyz[i] > 0.f ? i : -1;
}

static int nearest_on_cpu(const float* xyz, int n) {
    int found = 0;
    for (int i = 0; i < n; ++i) found += xyz[i] > 0.f;
    return found;
}

int main() {
    const int n = 4096;
    static float xyz[n];
    bool parallel = false;
    if (!parallel) {
        return nearest_on_cpu(xyz, n) > n ? 1 : 0;
    } else {
        float* d_xyz = nullptr;
        int* d_best = nullptr;
        HIP_CHECK(hipMalloc(&d_xyz, sizeof(float) * n));
        HIP_CHECK(hipMalloc(&d_best, sizeof(int) * n));
        HIP_CHECK(hipMemcpy(d_xyz, xyz, sizeof(float) * n, hipMemcpyHostToDevice));
        nearest<<<(n + 255) / 256, 256>>>(d_xyz, d_best, n);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
    }
    return 0;
}
