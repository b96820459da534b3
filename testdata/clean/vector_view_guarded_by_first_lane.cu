// Clean: vector loads through typed views whose guards cover every lane: a test on the vector's
// last element, a count of whole vectors, and a size the kernel checks is a multiple of 4.
#include <cuda_runtime.h>

__global__ void scale4_last_lane(const float* in, float* out, int n, float s)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    const int first = v * 4;
    if (first + 3 >= n) return;
    float4 x = reinterpret_cast<const float4*>(in)[v];
    x.x *= s; x.y *= s; x.z *= s; x.w *= s;
    reinterpret_cast<float4*>(out)[v] = x;
}

__global__ void scale4_whole_vectors(const float* in, float* out, int vectors, float s)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= vectors) return;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    float4 x = in4[v];
    x.x *= s; x.y *= s; x.z *= s; x.w *= s;
    reinterpret_cast<float4*>(out)[v] = x;
}

__global__ void scale4_multiple(const float* in, float* out, int n, float s)
{
    if (n % 4 != 0) return;
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if ((v << 2) >= n) return;
    float4 x = reinterpret_cast<const float4*>(in)[v];
    x.x *= s; x.y *= s; x.z *= s; x.w *= s;
    reinterpret_cast<float4*>(out)[v] = x;
}

int main()
{
    const int n = 1024;
    float* d_in = nullptr;
    float* d_out = nullptr;
    if (cudaMalloc(&d_in, n * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMalloc(&d_out, n * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(d_in, 0, n * sizeof(float)) != cudaSuccess) return 1;
    const int vectors = n / 4;
    scale4_last_lane<<<(vectors + 255) / 256, 256>>>(d_in, d_out, n, 2.0f);
    if (cudaGetLastError() != cudaSuccess) return 1;
    scale4_whole_vectors<<<(vectors + 255) / 256, 256>>>(d_in, d_out, vectors, 2.0f);
    if (cudaGetLastError() != cudaSuccess) return 1;
    scale4_multiple<<<(vectors + 255) / 256, 256>>>(d_in, d_out, n, 2.0f);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
