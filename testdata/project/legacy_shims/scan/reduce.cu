// Bad (project): ../warp_helper.h maps __shfl and __shfl_up to their _sync forms, but not
// __shfl_down: built for compute capability 7.0 or later, this call does not compile.
#include <cuda_runtime.h>
#include "../warp_helper.h"

__global__ void warp_sums(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down(v, d, 32); // expect: legacy-warp-intrinsic
    v = __shfl(v, 0, 32);
    if (i < n && (threadIdx.x & 31) == 0) out[i / 32] = v;
}

int run_sums(const float* in, float* out, int n) {
    warp_sums<<<(n + 255) / 256, 256>>>(in, out, n);
    return cudaGetLastError() != cudaSuccess;
}
