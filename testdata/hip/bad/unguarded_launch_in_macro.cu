// Bad: a launch written in a function-like macro rounds the grid up, and the kernel has no
// guard: the last block's threads past `n` write out of bounds. The finding's launch label
// points at the macro's use. The same with the launch written as the statement a type-dispatch
// macro (defined in a header) runs for each type.
__global__ void fill_ids(int* ids, int n, int base) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x; // expect-label: unguarded-thread-index
    ids[i] = base + i; // expect: unguarded-thread-index
}

#define LAUNCH_FILL(BLOCK)                                                                     \
    hipLaunchKernelGGL(fill_ids, (n + BLOCK - 1) / BLOCK, BLOCK, 0, stream, ids, n, base);

void fill(int* ids, int n, int base, bool wide, hipStream_t stream) {
    if (wide) {
        LAUNCH_FILL(256) // expect-label: unguarded-thread-index
    } else {
        LAUNCH_FILL(64) // expect-label: unguarded-thread-index
    }
    if (hipGetLastError() != hipSuccess) {
        abort();
    }
}

template<typename OType>
__global__ void dequantize(const unsigned char* in, OType* out, const float* scales, size_t cols) {
    const size_t idx = blockIdx.x * blockDim.x + threadIdx.x; // expect-label: unguarded-thread-index
    const size_t row = idx / cols; // expect-label: unguarded-thread-index
    out[idx] = static_cast<OType>(in[idx] * scales[row]); // expect: unguarded-thread-index, unguarded-thread-index // expect-label: unguarded-thread-index
}

void dequantize_all(const unsigned char* in, void* out, const float* scales, size_t rows,
                    size_t cols, int dtype, hipStream_t stream) {
    const size_t total = rows * cols;
    const size_t threads = 512;
    const size_t blocks = (total + threads - 1) / threads;
    TYPE_SWITCH_FLOAT(dtype, OType,
        dequantize<<<blocks, threads, 0, stream>>>(in, reinterpret_cast<OType*>(out), scales, // expect-label: unguarded-thread-index, unguarded-thread-index
                                                  cols););
    if (hipGetLastError() != hipSuccess) {
        abort();
    }
}
