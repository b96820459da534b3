// Bad: counts padded on the host, but not to what the grid covers: a count padded to whole
// blocks of threads read four values per thread, a buffer allocated before its count is padded,
// and a count padded to 128 launched in blocks of 256.
#include "hip_check.h"

// Four values per thread, but the count is padded to one value per thread only.
__global__ void scale4(const float* in, float* out, float s) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in)[i]; // expect: unguarded-thread-index
    v.x *= s;
    v.y *= s;
    v.z *= s;
    v.w *= s;
    reinterpret_cast<float4*>(out)[i] = v;
}

void scale_all(const float* d_in, float* d_out, int n, float s) {
    n = (n + 255) / 256 * 256;
    float* d_src;
    float* d_dst;
    HIP_CHECK(hipMalloc((void**)&d_src, n * sizeof(float)));
    HIP_CHECK(hipMalloc((void**)&d_dst, n * sizeof(float)));
    scale4<<<n / 256, 256>>>(d_src, d_dst, s);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_src));
    HIP_CHECK(hipFree(d_dst));
}

__global__ void clear(float* data) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = 0.0f; // expect: unguarded-thread-index
}

// The buffer holds the count as given; the padding comes after the allocation.
void clear_late(int n) {
    float* d_data;
    HIP_CHECK(hipMalloc((void**)&d_data, n * sizeof(float)));
    n = (n + 255) / 256 * 256;
    clear<<<n / 256, 256>>>(d_data);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_data));
}

__global__ void mark(int* flags) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    flags[i] = 1; // expect: unguarded-thread-index
}

// Padded to 128, launched in blocks of 256: the last block can run 128 threads past the end.
void mark_all(int n) {
    const int padded = (n + 127) / 128 * 128;
    int* d_flags;
    HIP_CHECK(hipMalloc((void**)&d_flags, padded * sizeof(int)));
    mark<<<(padded + 255) / 256, 256>>>(d_flags);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_flags));
}
