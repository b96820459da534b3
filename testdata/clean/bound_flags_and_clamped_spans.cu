// Clean: bounds kept in a flag that later code only clears, a flag taken before the column it
// tests is stepped, a sentinel slot written by the thread equal to the count before returning,
// and a per-thread span clamped with min() to what is left of the buffer.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

// Points of `views` cameras: the bounds test is the flag's starting value, and the culling
// tests afterwards only ever switch it off.
__global__ void cullPoints(const float* depth, const float* weight, float* kept,
                           int views, int points, float near_z, float far_z) {
    const int view = blockIdx.y;
    const int point = blockIdx.x * blockDim.x + threadIdx.x;
    bool visible = (view < views) && (point < points);
    float z = 0.0f;
    if (visible) {
        z = depth[view * points + point];
        if (z < near_z || z > far_z) {
            visible = false;
        }
    }
    if (visible) {
        float w = weight[view * points + point];
        if (w <= 0.0f) {
            visible = false;
        } else {
            z *= w;
        }
    }
    visible &= z != 0.0f;
    if (visible) {
        kept[view * points + point] = z;
    }
}

// Four columns per thread: the flag tests the first, each lane is weighted by its own column
// as it steps through the four; the packed output slot is computed from the first column.
__global__ void packQuads(const float* in, float4* out, int rows, int cols, int chunk) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    const int part = col / chunk;
    const int within = col % chunk;
    const bool inside = (row < rows) && (col < cols);
    if (inside) {
        const float base = in[row * cols + col];
        float4 v;
        v.x = base * col;
        col += 1;
        v.y = base * col;
        col += 1;
        v.z = base * col;
        col += 1;
        v.w = base * col;
        const int slot = (row * cols + part * chunk + within) >> 2;
        out[slot] = v;
    }
}

// One thread per segment plus one for the closing offset.
__global__ void segmentStarts(const int* lengths, int* starts, int segments, int total) {
    unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s > segments) {
        return;
    }
    if (s == segments) {
        starts[s] = total;
        return;
    }
    starts[s] = lengths[s];
}

// Each thread ORs a span of words; the last span is cut to what is left.
__global__ void orSpans(const unsigned* words, unsigned* merged, int count, int span) {
    const int first = (blockIdx.x * blockDim.x + threadIdx.x) * span;
    const int len = min(span, count - first);
    unsigned acc = 0;
    for (int k = 0; k < len; ++k) {
        const int at = first + k;
        acc |= words[at];
    }
    if (len > 0) {
        merged[first / span] = acc;
    }
}

int main() {
    const int views = 4, points = 1000, rows = 60, cols = 200, chunk = 40, span = 8;
    const int words = points * span;
    std::vector<float> host(views * points, 1.0f);

    float *d_depth, *d_weight, *d_kept, *d_in;
    float4* d_out;
    int *d_lengths, *d_starts;
    unsigned *d_words, *d_merged;
    CUDA_CHECK(cudaMalloc(&d_depth, views * points * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_weight, views * points * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_kept, views * points * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_in, rows * cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, rows * cols / 4 * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_lengths, points * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_starts, (points + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_words, words * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_merged, points * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_depth, host.data(), views * points * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_weight, host.data(), views * points * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_in, 0, rows * cols * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_lengths, 0, points * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_words, 0, words * sizeof(unsigned)));

    dim3 grid((points + THREADS - 1) / THREADS, views);
    cullPoints<<<grid, THREADS>>>(d_depth, d_weight, d_kept, views, points, 0.1f, 100.0f);
    CUDA_CHECK(cudaGetLastError());
    dim3 block2d(16, 8);
    dim3 grid2d((cols / 4 + 15) / 16, (rows + 7) / 8);
    packQuads<<<grid2d, block2d>>>(d_in, d_out, rows, cols, chunk);
    CUDA_CHECK(cudaGetLastError());
    segmentStarts<<<(points + 1 + THREADS - 1) / THREADS, THREADS>>>(d_lengths, d_starts, points, words);
    CUDA_CHECK(cudaGetLastError());
    orSpans<<<(points + THREADS - 1) / THREADS, THREADS>>>(d_words, d_merged, words, span);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(host.data(), d_kept, views * points * sizeof(float), cudaMemcpyDeviceToHost));
    printf("kept[0] = %f\n", host[0]);
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
