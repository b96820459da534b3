// The twins of testdata/clean/value_ranges.cu with the fact that bounded each index taken away.

// The column test is missing: the row test alone does not bound `row * stride + ch`.
__global__ void add_bias_rows(float* out, const float* in, int rows, int stride)
{
    const int ch = blockIdx.y * blockDim.x + threadIdx.x;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        const int idx = row * stride + ch;
        out[idx] = in[idx]; // expect: unguarded-thread-index
    }
}

// The clamp only raises the index.
__global__ void gather_clamped(float* out, const float* in, unsigned int first)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < first) {
        i = first;
    }
    out[i] = in[i]; // expect: unguarded-thread-index
}

// The position takes a different step from the column it was built from.
__global__ void load_group(float* vals, int group_size)
{
    int id = threadIdx.x;
    int group_index = blockIdx.x * group_size + id;
    float sum = 0.0f;
    while (id < group_size) {
        sum += vals[group_index]; // expect: unguarded-thread-index
        group_index += 2 * blockDim.x;
        id += blockDim.x;
    }
    vals[blockIdx.x] = sum;
}

// A grid rounded up from the element count, and nothing bounds the global index.
__global__ void split_rows(float* out, const float* in, int cols)
{
    const int row = blockIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    out[row * cols + col] = in[row * cols + col]; // expect: unguarded-thread-index
}

hipError_t launch_split_rows(float* out, const float* in, int rows, int cols, hipStream_t stream)
{
    dim3 grid((cols + 255) / 256, rows); // expect: invalid-launch-config
    hipLaunchKernelGGL(split_rows, grid, 256, 0, stream, out, in, cols);
    return hipGetLastError();
}
