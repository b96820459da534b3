// Bad: float4 loops whose span is not a whole number of vectors. With chunks of 30 floats the
// counter's last value is `start + 28`, whose float4 reaches `end + 1`: one past `n` when
// `end == n - 1`. And a loop that steps by 4 up to `n` itself reads up to three floats past
// the end whenever `n` is not a multiple of 4.
#include <cuda_runtime.h>

constexpr int kChunk = 30;

__global__ void sum_chunks(const float* __restrict__ in, float* __restrict__ out, const int n)
{
    const int chunk = blockIdx.x * blockDim.x + threadIdx.x;
    const int start = chunk * kChunk;
    const int end = start + kChunk;
    float s = 0.f;
    if (end < n) {
        for (int i = start; i < end; i += 4) {
            const float4 v = reinterpret_cast<const float4*>(in)[i / 4]; // expect: out-of-range-access
            s += v.x + v.y + v.z + v.w;
        }
    }
    if (start < n) out[chunk] = s;
}

__global__ void sum_strided(const float* __restrict__ in, float* __restrict__ out, const int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int i = 4 * t; i < n; i += 4 * blockDim.x * gridDim.x) {
        const float4 v = reinterpret_cast<const float4*>(in)[i / 4]; // expect: out-of-range-access
        s += v.x + v.y + v.z + v.w;
    }
    out[t] = s;
}

int main()
{
    const int n = 1001;
    float* d_in = nullptr;
    float* d_out = nullptr;
    if (cudaMalloc(&d_in, n * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMalloc(&d_out, n * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(d_in, 0, n * sizeof(float)) != cudaSuccess) return 1;
    const int chunks = (n + kChunk - 1) / kChunk;
    sum_chunks<<<(chunks + 127) / 128, 128>>>(d_in, d_out, n);
    if (cudaGetLastError() != cudaSuccess) return 1;
    sum_strided<<<2, 128>>>(d_in, d_out, n);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
