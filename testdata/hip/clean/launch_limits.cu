// Clean: unbounded sizes on grid x, small-by-design sizes (batch, heads) on grid y and z, and
// sizes capped before they reach grid y or a block.
#include <algorithm>
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void attentionScores(const float* q, float* scores, int seq_len) {
    int head = blockIdx.y;
    int batch = blockIdx.z;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < seq_len) scores[(batch * gridDim.y + head) * seq_len + t] = q[t];
}

void launchScores(const float* q, float* scores, int seq_len, int num_heads, int batch_size) {
    dim3 grid((seq_len + 127) / 128, num_heads, batch_size);
    hipLaunchKernelGGL(attentionScores, grid, 128, 0, 0, q, scores, seq_len);
    if (hipGetLastError() != hipSuccess) fprintf(stderr, "scores failed\n");
}

__global__ void rowSums(const float* in, float* out, int cols, int rows) {
    for (int row = blockIdx.y; row < rows; row += gridDim.y) {
        float sum = 0.0f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += in[row * cols + c];
        atomicAdd(&out[row], sum);
    }
}

void launchRowSums(const float* in, float* out, int cols, int num_rows) {
    // grid y capped at the hardware limit; the kernel strides over the remaining rows
    dim3 grid(1, std::min(num_rows, 65535));
    hipLaunchKernelGGL(rowSums, grid, 256, 0, 0, in, out, cols, num_rows);
    if (hipGetLastError() != hipSuccess) fprintf(stderr, "row sums failed\n");
}

__global__ void perRow(float* data, int cols) {
    for (int c = threadIdx.x; c < cols; c += blockDim.x) data[blockIdx.x * cols + c] += 1.0f;
}

void launchPerRow(float* data, int num_rows, int cols) {
    // rows on grid x, a fixed block looping over the columns
    hipLaunchKernelGGL(perRow, num_rows, 256, 0, 0, data, cols);
    if (hipGetLastError() != hipSuccess) fprintf(stderr, "per row failed\n");
}

// The same attention softmax with the long axis on x: heads times positions over grid x, the
// batch on y.
__global__ void attnSoftmax(float* scores, int seq_len) {
    float* line = scores + ((size_t)blockIdx.y * gridDim.x + blockIdx.x) * seq_len;
    for (int c = threadIdx.x; c < seq_len; c += blockDim.x) line[c] = expf(line[c]);
}

dim3 softmaxGrid(int batch_size, int heads, int seq_len, int threads) {
    int seq4 = seq_len / 4;
    int rows_per_block = seq4 < threads ? threads / seq4 : 1;
    unsigned x = heads * seq_len / rows_per_block;
    unsigned y = batch_size;
    return {x, y};
}

void launchAttnSoftmax(float* scores, int batch_size, int heads, int seq_len, hipStream_t stream) {
    const int threads = 128;
    dim3 grid = softmaxGrid(batch_size, heads, seq_len, threads);
    hipLaunchKernelGGL(attnSoftmax, grid, threads, 0, stream, scores, seq_len);
    if (hipGetLastError() != hipSuccess) fprintf(stderr, "softmax failed\n");
}

// Short sequences only: a kernel that keeps a row in registers, chosen below a length the
// launcher checks.
__global__ void shortRows(float* scores, int seq_len) {
    float* line = scores + ((size_t)blockIdx.x * gridDim.y + blockIdx.y) * seq_len;
    if (threadIdx.x < seq_len) line[threadIdx.x] *= 0.5f;
}

void launchShortRows(float* scores, int batch_size, int heads, int seq_len) {
    if (seq_len <= 1024) {
        dim3 grid(batch_size, heads * seq_len / 32);
        hipLaunchKernelGGL(shortRows, grid, 1024, 0, 0, scores, seq_len);
    } else {
        dim3 grid(heads * seq_len, batch_size);
        hipLaunchKernelGGL(shortRows, grid, 1024, 0, 0, scores, seq_len);
    }
    if (hipGetLastError() != hipSuccess) fprintf(stderr, "short rows failed\n");
}

#define MAX_GRID_Y 65535

__global__ void perToken(float* x, int hidden, int num_tokens) {
    for (int t = blockIdx.y; t < num_tokens; t += gridDim.y)
        for (int c = threadIdx.x; c < hidden; c += blockDim.x) x[(size_t)t * hidden + c] *= 2.0f;
}

void launchPerToken(float* x, int hidden, int num_tokens) {
    // capped at the grid's limit; the kernel strides over the rest
    dim3 grid(1, std::min(num_tokens, MAX_GRID_Y));
    hipLaunchKernelGGL(perToken, grid, 256, 0, 0, x, hidden, num_tokens);
    if (hipGetLastError() != hipSuccess) fprintf(stderr, "per token failed\n");
}
