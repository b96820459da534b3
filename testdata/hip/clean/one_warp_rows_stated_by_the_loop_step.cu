// Clean: a router softmax compiled for a host in another language, one warp per row. No launch
// is in sight; the block-stride loops step by 32, which states the block's width, and with 32
// threads each thread keeps its own elements of the row.
#include <hip/hip_runtime.h>

extern "C" __global__ void router_softmax(const float* logits, float* out, int n) {
    extern __shared__ float probs[];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    float m = -INFINITY;
    for (int i = tid; i < n; i += 32) {
        probs[i] = logits[row * n + i];
        m = fmaxf(m, probs[i]);
    }
    for (int o = 16; o > 0; o >>= 1) {
        m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    }
    float s = 0.f;
    for (int i = tid; i < n; i += 32) {
        probs[i] = __expf(probs[i] - m);
        s += probs[i];
    }
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_xor_sync(0xffffffff, s, o);
    }
    for (int i = tid; i < n; i += 32) {
        out[row * n + i] = probs[i] / s;
    }
}

#define WARP_SIZE 32

// The same one-warp layout, its step written with the file's warp-size macro.
extern "C" __global__ void row_normalize(float* rows, int n) {
    extern __shared__ float values[];
    float* row = rows + blockIdx.x * n;
    int lane = threadIdx.x;
    float sum = 0.f;
    for (int i = lane; i < n; i += WARP_SIZE) {
        values[i] = row[i];
        sum += values[i];
    }
    for (int o = WARP_SIZE / 2; o > 0; o >>= 1) {
        sum += __shfl_xor_sync(0xffffffff, sum, o);
    }
    for (int i = lane; i < n; i += WARP_SIZE) {
        row[i] = values[i] / sum;
    }
}
