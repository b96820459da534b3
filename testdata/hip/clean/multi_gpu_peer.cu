// Clean: multi-GPU work: each device launches on its own buffers, and a cross-device read happens only
// after peer access has been enabled.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void scaleAdd(const float* a, const float* b, float* out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * s + b[i];
    }
}

int main() {
    int deviceCount = 0;
    HIP_CHECK(hipGetDeviceCount(&deviceCount));
    if (deviceCount < 2) {
        printf("needs two GPUs, found %d\n", deviceCount);
        return 0;
    }

    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_a(n), h_b(n), h_out(n);
    for (int i = 0; i < n; ++i) {
        h_a[i] = static_cast<float>(rand()) / RAND_MAX;
        h_b[i] = static_cast<float>(i % 100) / 100.0f;
    }

    int canAccess = 0;
    HIP_CHECK(hipDeviceCanAccessPeer(&canAccess, 1, 0));
    if (!canAccess) {
        printf("peer access 1 -> 0 not supported\n");
        return 0;
    }

    float *d0_a = nullptr, *d0_out = nullptr;
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipMalloc(&d0_a, bytes));
    HIP_CHECK(hipMalloc(&d0_out, bytes));
    HIP_CHECK(hipMemcpy(d0_a, h_a.data(), bytes, hipMemcpyHostToDevice));
    scaleAdd<<<(n + 255) / 256, 256>>>(d0_a, d0_a, d0_out, 2.0f, n);
    HIP_CHECK(hipGetLastError());

    float *d1_b = nullptr, *d1_out = nullptr;
    HIP_CHECK(hipSetDevice(1));
    HIP_CHECK(hipDeviceEnablePeerAccess(0, 0));
    HIP_CHECK(hipMalloc(&d1_b, bytes));
    HIP_CHECK(hipMalloc(&d1_out, bytes));
    HIP_CHECK(hipMemcpy(d1_b, h_b.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipSetDevice(1));
    // d0_out lives on device 0; device 1 reads it through the peer mapping.
    scaleAdd<<<(n + 255) / 256, 256>>>(d0_out, d1_b, d1_out, 0.5f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_out.data(), d1_out, bytes, hipMemcpyDeviceToHost));
    printf("out[7] = %f\n", h_out[7]);

    HIP_CHECK(hipFree(d1_b));
    HIP_CHECK(hipFree(d1_out));
    HIP_CHECK(hipDeviceDisablePeerAccess(0));
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipFree(d0_a));
    HIP_CHECK(hipFree(d0_out));
    return 0;
}
