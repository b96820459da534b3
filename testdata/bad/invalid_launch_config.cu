// Bad: launch configurations the hardware rejects (too many threads per block, empty grid/block, too much dynamic shared memory).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

__global__ void touch(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += 1.0f;
    }
}

__global__ void touch2d(float* data, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        data[y * width + x] *= 0.5f;
    }
}

__global__ void stage(const float* in, float* out, int n) {
    extern __shared__ float buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    if (i < n) {
        out[i] = buf[blockDim.x - 1 - threadIdx.x];
    }
}

int main() {
    const int n = 1 << 16;
    const int width = 256, height = 256;
    float* d_data = nullptr;
    float* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_data, 0, n * sizeof(float)));

    touch<<<(n + 2047) / 2048, 2048>>>(d_data, n); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());

    touch<<<0, 256>>>(d_data, n); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());

    touch<<<64, 0>>>(d_data, n); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());

    dim3 block(32, 64);
    dim3 grid(width / 32, height / 64);
    touch2d<<<grid, block>>>(d_data, width, height); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());

    touch2d<<<dim3(16, 16), dim3(16, 16, 8)>>>(d_data, width, height); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());

    stage<<<n / 256, 256, 256 * 1024>>>(d_data, d_out, n); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());

    // Valid limits: exactly 1024 threads and 48 KiB of dynamic shared memory.
    touch<<<n / 1024, 1024>>>(d_data, n);
    CUDA_CHECK(cudaGetLastError());
    stage<<<n / 256, 256, 48 * 1024>>>(d_data, d_out, n);
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

// One block per token on grid y: a long sequence has more than 65,535 tokens.
__global__ void gatherTokens(const float* in, float* out, const int* index, int hidden) {
    int token = blockIdx.y;
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < hidden; c += gridDim.x * blockDim.x) {
        out[token * hidden + c] = in[index[token] * hidden + c];
    }
}

void launchGatherTokens(const float* in, float* out, const int* index, int num_tokens, int hidden) {
    dim3 block(256);
    dim3 grid(4, num_tokens); // expect: invalid-launch-config
    gatherTokens<<<grid, block>>>(in, out, index, hidden);
    if (cudaGetLastError() != cudaSuccess) return;
}

// One thread per feature of a row: a hidden size past 1024 cannot be a block.
__global__ void scaleRows(float* data, int hidden_size) {
    data[blockIdx.x * hidden_size + threadIdx.x] *= 0.5f;
}

void launchScaleRows(float* data, int rows, int hidden_size) {
    scaleRows<<<rows, hidden_size>>>(data, hidden_size); // expect: invalid-launch-config
    if (cudaGetLastError() != cudaSuccess) return;
}

// Attention softmax, one block per group of rows: a row of every head of every position on
// grid y. For sequences of 512 and more a block takes one row, so with 32 heads and 2048
// positions grid y needs 65,536 blocks.
__global__ void attnSoftmax(float* scores, const float* mask, int heads, int seq_len) {
    int batch = blockIdx.x;
    int row = blockIdx.y;
    float* line = scores + ((size_t)batch * gridDim.y + row) * seq_len;
    for (int c = threadIdx.x; c < seq_len; c += blockDim.x) line[c] = expf(line[c] + mask[batch * seq_len + c]);
}

void launchAttnSoftmax(float* scores, const float* mask, int batch_size, int heads, int seq_len,
                       cudaStream_t stream) {
    const int threads = 128;
    int seq4 = seq_len / 4;
    int rows_per_block = seq4 < threads ? threads / seq4 : 1;
    dim3 grid(batch_size, heads * seq_len / rows_per_block); // expect: invalid-launch-config
    attnSoftmax<<<grid, threads, 0, stream>>>(scores, mask, heads, seq_len);
    CUDA_CHECK(cudaGetLastError());
}

// One block per position of the sequence on grid y, the batch on x.
__global__ void addPositions(float* x, const float* pos, int hidden) {
    float* token = x + ((size_t)blockIdx.y * gridDim.x + blockIdx.x) * hidden;
    for (int c = threadIdx.x; c < hidden; c += blockDim.x) token[c] += pos[blockIdx.y * hidden + c];
}

void launchAddPositions(float* x, const float* pos, int batch_size, int seq_length, int hidden) {
    if (hidden > 4096) {
        fprintf(stderr, "hidden size %d is not supported\n", hidden);
        return;
    }
    dim3 grid_dim(batch_size, seq_length); // expect: invalid-launch-config
    addPositions<<<grid_dim, 256>>>(x, pos, hidden);
    CUDA_CHECK(cudaGetLastError());
}
