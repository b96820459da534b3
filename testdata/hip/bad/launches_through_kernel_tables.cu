// Bad: launched through a table of the kernel's specialisations (through a macro), with a grid
// rounded up over the slots and no guard: the last block's threads past `slots` write out of
// bounds.
#include <hip/hip_runtime.h>

template <int T>
__global__ void keep_topk(const float* in, float* out, int per_class, int top_k) {
    for (int t = 0; t < T; ++t) {
        const int cur = threadIdx.x + blockDim.x * t;
        if (cur < top_k) out[blockIdx.x * top_k + cur] = in[blockIdx.x * per_class + cur];
    }
}

template <int T>
__global__ void scale_topk(float* out, int top_k, float by) {
    const int slot = blockIdx.x * blockDim.x + threadIdx.x;
    for (int t = 0; t < T; ++t) out[slot] *= by; // expect: unguarded-thread-index
}

int launch_keep(const float* in, float* out, int classes, int per_class, int top_k) {
    void (*kernel[2])(const float*, float*, int, int) = {keep_topk<1>, keep_topk<2>};
    const int t = (top_k + 511) / 512;
    kernel[t - 1]<<<classes, 512>>>(in, out, per_class, top_k);
    return hipGetLastError() != hipSuccess;
}

#define SCALE(n) scale_topk<(n)>
int launch_scale(float* out, int slots, float by) {
    void (*kernel[2])(float*, int, float) = {SCALE(1), SCALE(2)};
    kernel[0]<<<(slots + 511) / 512, 512>>>(out, slots, by);
    return hipGetLastError() != hipSuccess;
}
