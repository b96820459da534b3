// partial-warp-shuffle: full-mask warp collectives under conditions that split a warp.
#define FULL_MASK 0xffffffff
#define WARP_SIZE 32

__device__ float warpReduceSum(float v) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    }
    return v;
}

// The first half of each warp shuffles with all 32 lanes named.
__global__ void halfWarp(float* data) {
    int lane = threadIdx.x % WARP_SIZE;
    float v = data[threadIdx.x];
    if (lane < 16) {
        v += __shfl_down_sync(0xffffffff, v, 8); // expect: partial-warp-shuffle
    }
    data[threadIdx.x] = v;
}

// The tail warp's lanes past n have returned; the others read their values.
__global__ void tailReturn(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = data[i];
    v += __shfl_down_sync(FULL_MASK, v, 1); // expect: partial-warp-shuffle
    data[i] = v;
}

// A reduction helper called by the lanes below n only.
__global__ void guardedHelper(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = warpReduceSum(in[i]); // expect: partial-warp-shuffle
        if (threadIdx.x % WARP_SIZE == 0) out[i / WARP_SIZE] = s;
    }
}

// A vote by the lanes that skip one iteration's thread.
__global__ void skipOne(const int* flags, unsigned* out, int rounds) {
    for (int r = 0; r < rounds; ++r) {
        if (threadIdx.x == r) continue;
        unsigned b = __ballot_sync(~0u, flags[r * blockDim.x + threadIdx.x] > 0); // expect: partial-warp-shuffle
        out[r] = b;
    }
}

// Whole warps: the first warp, warps by number, a vote after the tail returns, a mask of the
// lanes that take the branch.
__global__ void wholeWarps(float* data, int rows, int n) {
    int tid = threadIdx.x;
    int warp = tid / WARP_SIZE;
    float v = data[tid];
    if (tid < WARP_SIZE) {
        v = warpReduceSum(v);
    }
    if (warp == 1) {
        v += __shfl_sync(FULL_MASK, v, 0);
    }
    int row = blockIdx.x * (blockDim.x / WARP_SIZE) + warp;
    if (row < rows) {
        v += __shfl_xor_sync(FULL_MASK, v, 1);
    }
    int i = blockIdx.x * blockDim.x + tid;
    unsigned active = __ballot_sync(FULL_MASK, i < n);
    if (i < n) {
        v += __shfl_down_sync(active, v, 1);
    }
    data[tid] = v;
}
