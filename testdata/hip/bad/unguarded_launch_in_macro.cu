// Bad: a launch written in a function-like macro rounds the grid up, and the kernel has no
// guard: the last block's threads past `n` write out of bounds. The finding's launch label
// points at the macro's use.
__global__ void fill_ids(int* ids, int n, int base) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    ids[i] = base + i; // expect: unguarded-thread-index
}

#define LAUNCH_FILL(BLOCK)                                                                     \
    hipLaunchKernelGGL(fill_ids, (n + BLOCK - 1) / BLOCK, BLOCK, 0, stream, ids, n, base);

void fill(int* ids, int n, int base, bool wide, hipStream_t stream) {
    if (wide) {
        LAUNCH_FILL(256)
    } else {
        LAUNCH_FILL(64)
    }
    if (hipGetLastError() != hipSuccess) {
        abort();
    }
}
