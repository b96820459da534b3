// warp-synchronous-without-sync: lanes of one warp exchanging through shared memory.
#define BLOCK 64

__global__ void lastWarpUnrolled(const float* in, float* out) {
    volatile __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    if (t < 32) {
        s[t] += s[t + 32];
        s[t] += s[t + 16]; // expect: warp-synchronous-without-sync
        s[t] += s[t + 8];
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

// The same steps with the warp synchronised between each read and write.
__global__ void lastWarpSynced(const float* in, float* out) {
    __shared__ float s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    if (t < 32) {
        float v = s[t] + s[t + 32];
        __syncwarp();
        s[t] = v;
        __syncwarp();
        v += s[t + 16];
        __syncwarp();
        s[t] = v;
        __syncwarp();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

void launchAll(const float* in, float* out, int n) {
    lastWarpUnrolled<<<n / BLOCK, BLOCK>>>(in, out);
    if (hipGetLastError() != hipSuccess) return;
    lastWarpSynced<<<n / BLOCK, BLOCK>>>(in, out);
    if (hipGetLastError() != hipSuccess) return;
}
