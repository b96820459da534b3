// Clean: teaching reductions in the style of CUDA_Freshman. The block width comes from the
// command line, so no launch fixes it, but a block is at most 1024 threads wide and every
// launch passes `n = 1 << 24`: `threadIdx.x >= n` holds in no thread, and the barriers after
// the early return have the whole block. The second program rounds its grid up with the
// block's own component, `(nxy - 1) / block.x + 1` over `dim3 block(32)`, which is exact over
// 1 << 16 elements, so the unguarded stencil stays inside its buffers.
#include "cuda_check.h"

__global__ void reduce_neighbored(const int* g_idata, int* g_odata, unsigned int n) {
    unsigned int tid = threadIdx.x;
    if (tid >= n) return;
    __shared__ int partial[1024];
    partial[tid] = g_idata[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = partial[0];
}

__global__ void stencil(const float* in, float* out) {
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    out[idx] = 2.0f * in[idx];
}

int reduce_main(int argc, char** argv) {
    int size = 1 << 24;
    int blocksize = 1024;
    if (argc > 1) blocksize = atoi(argv[1]);
    dim3 block(blocksize, 1);
    dim3 grid((size - 1) / block.x + 1, 1);
    int *in = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMalloc(&in, size * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&out, grid.x * sizeof(int)));
    CUDA_CHECK(cudaMemset(in, 0, size * sizeof(int)));
    reduce_neighbored<<<grid, block>>>(in, out, size);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
    return 0;
}

int stencil_main() {
    unsigned int nxy = 1 << 16;
    float *in = nullptr, *out = nullptr;
    CUDA_CHECK(cudaMalloc(&in, nxy * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&out, nxy * sizeof(float)));
    CUDA_CHECK(cudaMemset(in, 0, nxy * sizeof(float)));
    dim3 block(32);
    dim3 grid((nxy - 1) / block.x + 1);
    stencil<<<grid, block>>>(in, out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
    return 0;
}
