// Clean: copy kinds held in variables or chosen by `?:` that match the buffers on the paths that
// run; a device-to-device copy between two GPUs' buffers (the runtime routes it, peer access or not).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void scale(const float* in, float* out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * s;
    }
}

static void copyBuffer(void* dst, const void* src, size_t bytes, bool toDevice) {
    HIP_CHECK(hipMemcpy(dst, src, bytes, toDevice ? hipMemcpyHostToDevice : hipMemcpyDeviceToHost));
}

int main(int argc, char** argv) {
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_in(n, 1.0f), h_out(n);

    float *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    hipMemcpyKind kind = hipMemcpyHostToDevice;
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), bytes, kind));
    scale<<<(n + 255) / 256, 256>>>(d_in, d_out, 2.0f, n);
    HIP_CHECK(hipGetLastError());
    kind = hipMemcpyDeviceToHost;
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, bytes, kind));
    const bool refresh = argc > 1;
    HIP_CHECK(hipMemcpy(refresh ? d_in : d_out, h_in.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_in, refresh ? h_in.data() : d_out, bytes, refresh ? hipMemcpyHostToDevice : hipMemcpyDeviceToDevice));
    copyBuffer(h_out.data(), d_out, bytes, false);

    int devices = 0;
    HIP_CHECK(hipGetDeviceCount(&devices));
    if (devices > 1) {
        float* d_peer = nullptr;
        HIP_CHECK(hipSetDevice(1));
        HIP_CHECK(hipMalloc(&d_peer, bytes));
        HIP_CHECK(hipMemcpy(d_peer, d_out, bytes, hipMemcpyDeviceToDevice));
        HIP_CHECK(hipMemcpy(h_out.data(), d_peer, bytes, hipMemcpyDeviceToHost));
        HIP_CHECK(hipFree(d_peer));
        HIP_CHECK(hipSetDevice(0));
    }
    printf("out[0] = %f\n", h_out[0]);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    return 0;
}
