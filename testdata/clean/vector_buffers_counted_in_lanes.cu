// Clean: a scan benchmark in the style of CUDA learning repositories. `n` counts floats
// everywhere: the buffers are `float4` views of `n` floats, allocated and copied as `n *
// sizeof(float)`, filled on the host through a `float*` view, and the kernel reads one vector
// per thread over `n / 4` threads.
#include "cuda_check.h"
#include <cstdlib>

__global__ void scaleVectors(const float4* in, float4* out, int vectors) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < vectors) {
        float4 v = in[i];
        out[i] = make_float4(2.0f * v.x, 2.0f * v.y, 2.0f * v.z, 2.0f * v.w);
    }
}

static void fill(float4* host, int n) {
    float* lanes = (float*)host;
    for (int i = 0; i < n; i++) lanes[i] = (float)rand() / RAND_MAX;
}

int main() {
    int n = 1 << 20;
    float4* h_in = (float4*)malloc(n * sizeof(float));
    float4* h_out = (float4*)malloc(n * sizeof(float));
    fill(h_in, n);
    float4 *d_in, *d_out;
    CUDA_CHECK(cudaMalloc((void**)&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void**)&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    int vectors = n >> 2;
    scaleVectors<<<(vectors + 255) / 256, 256>>>(d_in, d_out, vectors);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(h_in);
    free(h_out);
    return 0;
}
