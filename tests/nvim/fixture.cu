// Opened by tests/nvim/lsp_test.lua: one unguarded kernel, one guarded.
__global__ void scale(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
}

__global__ void shift(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = out[i] + 1.0f;
    }
}
