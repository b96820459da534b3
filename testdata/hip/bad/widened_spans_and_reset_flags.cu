// Bad: near misses of clean/bound_flags_and_clamped_spans.cu. A flag given a new value rather than
// only cleared, a flag of the row alone taken before the column steps, a sentinel written
// without returning, and a span stretched with max() instead of cut with min().
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t status_ = (call);                                         \
        if (status_ != hipSuccess) {                                         \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(status_), __FILE__, __LINE__);         \
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
    HIP_CHECK(hipMalloc(&d_depth, points * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_weight, sizeof(float)));
    HIP_CHECK(hipMalloc(&d_kept, points * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_in, 8 * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, points * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_lengths, points * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_starts, points * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_words, words * sizeof(unsigned)));
    HIP_CHECK(hipMalloc(&d_merged, sizeof(unsigned)));
    HIP_CHECK(hipMemset(d_depth, 0, points * sizeof(float)));
    HIP_CHECK(hipMemset(d_weight, 0, sizeof(float)));
    HIP_CHECK(hipMemset(d_in, 0, 8 * sizeof(float)));
    HIP_CHECK(hipMemset(d_lengths, 0, points * sizeof(int)));
    HIP_CHECK(hipMemset(d_starts, 0, points * sizeof(int)));
    HIP_CHECK(hipMemset(d_words, 0, words * sizeof(unsigned)));

    const int blocks = (points + THREADS - 1) / THREADS;
    hipLaunchKernelGGL(cullPoints, blocks, THREADS, 0, 0, d_depth, d_weight, d_kept, points, 0.5f);
    HIP_CHECK(hipGetLastError());
    dim3 block2d(16, 8);
    dim3 grid2d((points / 2 + 15) / 16, 1);
    hipLaunchKernelGGL(pairColumns, grid2d, block2d, 0, 0, d_in, d_out, 1, points);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(segmentStarts, (points + THREADS) / THREADS, THREADS, 0, 0, d_lengths, d_starts, points, words);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(orSpans, blocks, THREADS, 0, 0, d_words, d_merged, words, span);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(d_depth));
    HIP_CHECK(hipFree(d_weight));
    HIP_CHECK(hipFree(d_kept));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipFree(d_lengths));
    HIP_CHECK(hipFree(d_starts));
    HIP_CHECK(hipFree(d_words));
    HIP_CHECK(hipFree(d_merged));
    return 0;
}
