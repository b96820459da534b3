// Indices bounded by their value ranges rather than by one recognised guard shape: each is
// in range for every launch it could be given.
#include <cassert>

#define MAX_REG 4

// A flat index under separate tests on its row and its column, the row advancing by the grid.
__global__ void add_bias_rows(float* out, const float* in, const float* bias, int rows, int stride)
{
    const int ch = blockIdx.y * blockDim.x + threadIdx.x;
    for (int row = blockIdx.x; row < rows; row += gridDim.x) {
        if (ch < stride) {
            const int idx = row * stride + ch;
            out[idx] = in[idx] + bias[ch];
        }
    }
}

// A per-thread span clamped to the total, used as the loop bound.
__global__ void scale_spans(float* out, const float* in, int total, int span)
{
    const int start = (blockIdx.x * blockDim.x + threadIdx.x) * span;
    const int end = min(start + span, total);
    for (int k = start; k < end; ++k) {
        out[k] = 2.0f * in[k];
    }
}

// The bound stated by an assertion.
__global__ void fill_asserted(float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i < n);
    out[i] = 0.0f;
}

// The bound stated as an assumption for the optimiser.
__global__ void fill_assumed(float* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    __builtin_assume(i < n);
    out[i] = 1.0f;
}

// An index clamped in place before it is used.
__global__ void gather_clamped(float* out, const float* in, unsigned int active)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > active - 1) {
        i = active - 1;
    }
    out[i] = in[i];
}

// A flat position stepped alongside the column it is built from.
__global__ void load_group(float* vals, int group_size)
{
    int id = threadIdx.x;
    int group_index = blockIdx.x * group_size + id;
    int reg_count = 0;
    float sum = 0.0f;
    while (id < group_size && reg_count < MAX_REG) {
        sum += vals[group_index];
        group_index += blockDim.x;
        id += blockDim.x;
        reg_count++;
    }
    if (threadIdx.x == 0) vals[blockIdx.x * group_size] = sum;
}

// What is left after the index, tested before the last element of a vector is written.
__global__ void store_vec4(float* out, int n)
{
    const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    const int left = n - i;
    if (left >= 4) {
        out[i + 3] = 0.0f;
    }
}

// A grid axis split into two coordinates by a count the launch passes, and a block per batch.
__global__ void split_heads(float* output, const float* vals, int hidden_dim, int seq_length,
                            int heads, int head_ext)
{
    const int d1_stride = hidden_dim;
    const int d2_stride = hidden_dim / heads;
    const int d0 = blockIdx.x;
    const int d1 = blockIdx.y / head_ext;
    const int d2 = threadIdx.y + (blockIdx.y % head_ext) * (heads / head_ext);
    const int d3 = threadIdx.x;
    output[d0 * seq_length * d1_stride + d1 * d1_stride + d2 * d2_stride + d3] =
        vals[d0 * seq_length * d1_stride + d1 * d1_stride + d2 * d2_stride + d3];
}

hipError_t launch_split_heads(float* output, const float* vals, int batch, int seq_length,
                        int hidden_dim, int heads, hipStream_t stream)
{
    if (seq_length > 4096 || hidden_dim > 8192) return hipErrorInvalidValue;
    const int head_ext = (hidden_dim - 1) / 1024 + 1;
    dim3 block_dim(hidden_dim / heads, heads / head_ext);
    dim3 grid_dim(batch, seq_length * head_ext);
    split_heads<<<grid_dim, block_dim, 0, stream>>>(output, vals, hidden_dim, seq_length, heads,
                                                    head_ext);
    return hipGetLastError();
}
