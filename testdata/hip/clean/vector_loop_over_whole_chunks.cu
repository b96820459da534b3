// Clean: each thread quantizes one chunk of 32 floats through `float4` views. The guard tests
// the chunk's end, and the loops step by 4 over a span of exactly 32, so the counter stops at
// `end - 4` and the last float4 ends at `end - 1`, inside `n`. Short tail chunks go one float
// at a time.
#include "hip_check.h"

constexpr int kChunk = 32;

__global__ void quantize_chunks(const float* __restrict__ in, float* __restrict__ out,
                                const int n, const float step)
{
    const int chunk = blockIdx.x * blockDim.x + threadIdx.x;
    const int start = chunk * kChunk;
    const int end = start + kChunk;
    if (end <= n) {
        float peak = 0.f;
        for (int i = start; i < end; i += 4) {
            const float4 v = reinterpret_cast<const float4*>(in)[i / 4];
            peak = fmaxf(peak, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
        }
        const float scale = peak > 0.f ? step : 0.f;
        for (int i = 0; i < kChunk; i += 4) {
            const float4 v = reinterpret_cast<const float4*>(in)[(start + i) / 4];
            float4 q;
            q.x = rintf(v.x * scale);
            q.y = rintf(v.y * scale);
            q.z = rintf(v.z * scale);
            q.w = rintf(v.w * scale);
            reinterpret_cast<float4*>(out)[(start + i) / 4] = q;
        }
    } else if (start < n) {
        for (int i = start; i < n; i++) out[i] = rintf(in[i] * step);
    }
}

int main()
{
    const int n = 1000003;
    float* d_in = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMemset(d_in, 0, n * sizeof(float)));
    const int chunks = (n + kChunk - 1) / kChunk;
    quantize_chunks<<<(chunks + 255) / 256, 256>>>(d_in, d_out, n, 0.5f);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    return 0;
}
