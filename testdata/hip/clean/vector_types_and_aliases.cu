// Clean: vector, half and aliased element types counted with their own sizes; a float4 view of a
// float buffer copied in floats; a precision chosen by the build.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "hip_check.h"

#ifdef USE_DOUBLE
typedef double scalar_t;
#else
typedef float scalar_t;
#endif

typedef float4 vec4;
using index_t = int;

__global__ void scale4(const float4* in, float4* out, float s, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 v = in[i];
        out[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
    }
}

__global__ void gather(const scalar_t* in, const index_t* idx, scalar_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[idx[i]];
    }
}

__global__ void halve(const __half2* in, __half2* out, int n2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) {
        out[i] = __hmul2(in[i], __float2half2_rn(0.5f));
    }
}

// n floats, processed four at a time
static void scaleFloats(const std::vector<float>& h_in, std::vector<float>& h_out) {
    const int n = static_cast<int>(h_in.size());
    const int n4 = n / 4;
    vec4 *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n4 * sizeof(vec4)));
    HIP_CHECK(hipMalloc(&d_out, n4 * sizeof(float4)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(scale4, (n4 + 255) / 256, 256, 0, 0, d_in, d_out, 2.0f, n4);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
}

static void gatherValues(const std::vector<scalar_t>& h_in, const std::vector<index_t>& h_idx) {
    const int n = static_cast<int>(h_idx.size());
    scalar_t *d_in = nullptr, *d_out = nullptr;
    index_t* d_idx = nullptr;
    HIP_CHECK(hipMalloc(&d_in, h_in.size() * sizeof(scalar_t)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_idx, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), h_in.size() * sizeof(scalar_t), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_idx, h_idx.data(), n * sizeof(index_t), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(gather, (n + 255) / 256, 256, 0, 0, d_in, d_idx, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipFree(d_idx));
}

static void halveValues(int n) {
    const int n2 = n / 2;
    __half2 *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n2 * sizeof(__half2)));
    HIP_CHECK(hipMalloc(&d_out, n2 * sizeof(__half2)));
    HIP_CHECK(hipMemset(d_in, 0, n2 * sizeof(__half2)));
    hipLaunchKernelGGL(halve, (n2 + 255) / 256, 256, 0, 0, d_in, d_out, n2);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
}

int main() {
    const int n = 1 << 16;
    std::vector<float> in(n, 1.0f), out(n);
    scaleFloats(in, out);
    std::vector<scalar_t> values(n, 1);
    std::vector<index_t> idx(n / 2);
    for (int i = 0; i < n / 2; ++i) idx[i] = (i * 7) % n;
    gatherValues(values, idx);
    halveValues(n);
    printf("out[0] = %f\n", out[0]);
    return 0;
}
