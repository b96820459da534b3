// legacy-warp-intrinsic: warp intrinsics without a mask in device code.
#include <cuda_runtime.h>

__device__ float warpMax(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        v = fmaxf(v, __shfl_xor(v, offset)); // expect: legacy-warp-intrinsic
    }
    return v;
}

__global__ void countPositive(const float* in, unsigned* out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned votes = __ballot(v > 0.0f); // expect: legacy-warp-intrinsic
    if (__all(v > 1.0f)) { // expect: legacy-warp-intrinsic
        votes = 0;
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = __popc(votes) + warpMax(v);
    }
}

// Branches for old toolkits, shims over the _sync forms and a user overload are not reported.
#if CUDART_VERSION < 9000
#define WARP_BALLOT(p) __ballot(p)
__device__ unsigned ballotOld(bool p) { return __ballot(p); }
#else
#define WARP_BALLOT(p) __ballot_sync(0xffffffff, p)
#endif

#define __shfl_up(v, d) __shfl_up_sync(0xffffffff, v, d)

__device__ float4 __shfl_down(const float4 v, unsigned delta) {
    float4 out;
    out.x = __shfl_down_sync(0xffffffff, v.x, delta);
    out.y = __shfl_down_sync(0xffffffff, v.y, delta);
    out.z = __shfl_down_sync(0xffffffff, v.z, delta);
    out.w = __shfl_down_sync(0xffffffff, v.w, delta);
    return out;
}

__global__ void shims(float4* data, int* scan) {
    float4 v = data[threadIdx.x];
    v = __shfl_down(v, 1);
    int s = scan[threadIdx.x];
    s += __shfl_up(s, 1);
    data[threadIdx.x] = v;
    scan[threadIdx.x] = s;
}
