// Bad: near misses of clean/bound_flags_and_clamped_spans.cu. A flag given a new value rather than
// only cleared, a flag of the row alone taken before the column steps, a sentinel written
// without returning, and a span stretched with max() instead of cut with min().
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t status_ = (call);                                         \
        if (status_ != cudaSuccess) {                                         \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(status_), __FILE__, __LINE__);         \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define THREADS 128

// The second test replaces the flag: a thread past `points` with a positive weight sets it again.
__global__ void cullPoints(const float* depth, const float* weight, float* kept,
                           int points, float near_z) {
    const int point = blockIdx.x * blockDim.x + threadIdx.x;
    bool visible = point < points;
    visible = weight[0] > near_z;
    if (visible) {
        kept[point] = depth[point] * weight[0]; // expect: unguarded-thread-index
    }
}

// The flag tests the row before the column steps on, and nothing ever tests the column.
__global__ void pairColumns(const float* in, float* out, int rows, int cols) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = (blockIdx.x * blockDim.x + threadIdx.x) * 2;
    const bool inside = row < rows;
    const float left = inside ? in[row] : 0.0f;
    col += 1;
    if (inside) {
        out[row * cols + col] = left; // expect: unguarded-thread-index
    }
}

// The sentinel is written one past the starts the host allocated, and the thread goes on to
// read one past the lengths.
__global__ void segmentStarts(const int* lengths, int* starts, int segments, int total) {
    unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s > segments) {
        return;
    }
    if (s == segments) {
        starts[s] = total;
    }
    starts[s] += lengths[s]; // expect: out-of-range-access, out-of-range-access
}

// max() keeps the whole span even where fewer words are left.
__global__ void orSpans(const unsigned* words, unsigned* merged, int count, int span) {
    const int first = (blockIdx.x * blockDim.x + threadIdx.x) * span;
    const int len = max(span, count - first);
    unsigned acc = 0;
    for (int k = 0; k < len; ++k) {
        const int at = first + k;
        acc |= words[at]; // expect: unguarded-thread-index
    }
    merged[0] = acc;
}

int main() {
    const int points = 1000, span = 8, words = points * span;
    float *d_depth, *d_weight, *d_kept, *d_in, *d_out;
    int *d_lengths, *d_starts;
    unsigned *d_words, *d_merged;
    CUDA_CHECK(cudaMalloc(&d_depth, points * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_weight, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_kept, points * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_in, 8 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, points * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_lengths, points * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_starts, points * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_words, words * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_merged, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_depth, 0, points * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_weight, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, 8 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_lengths, 0, points * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_starts, 0, points * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_words, 0, words * sizeof(unsigned)));

    const int blocks = (points + THREADS - 1) / THREADS;
    cullPoints<<<blocks, THREADS>>>(d_depth, d_weight, d_kept, points, 0.5f);
    CUDA_CHECK(cudaGetLastError());
    dim3 block2d(16, 8);
    dim3 grid2d((points / 2 + 15) / 16, 1);
    pairColumns<<<grid2d, block2d>>>(d_in, d_out, 1, points);
    CUDA_CHECK(cudaGetLastError());
    segmentStarts<<<(points + THREADS) / THREADS, THREADS>>>(d_lengths, d_starts, points, words);
    CUDA_CHECK(cudaGetLastError());
    orSpans<<<blocks, THREADS>>>(d_words, d_merged, words, span);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_depth));
    CUDA_CHECK(cudaFree(d_weight));
    CUDA_CHECK(cudaFree(d_kept));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_lengths));
    CUDA_CHECK(cudaFree(d_starts));
    CUDA_CHECK(cudaFree(d_words));
    CUDA_CHECK(cudaFree(d_merged));
    return 0;
}
