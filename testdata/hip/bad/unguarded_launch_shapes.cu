// Bad: the launch shapes of launch_shapes.cu where threads do run past the data. A worker
// thread's lambda and a constant at file scope round the grid up; a constant grid the block does
// not divide leaves a partial block; a size padded to the block is not the buffer's size; a
// tile index moved past a skipped tile under a grid rounded up; an offset stepped on every trip
// of a loop. Each kernel needs its `i < n` test.
#include <thread>
#include "hip_check.h"

const int kSamples = 1000;
const int kSampleBlocks = (kSamples + 255) / 256;

__global__ void scale_rows(float* x, int n, float factor) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] *= factor; // expect: unguarded-thread-index
}

__global__ void zero_samples(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 0.0f; // expect: unguarded-thread-index
}

// 1000 cells in blocks of 16: the last block has 8 threads past the end.
#define CELLS 1000
__global__ void clear_cells(double* field, int cells) {
    const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    field[c] = 0.0; // expect: unguarded-thread-index
}

__global__ void fill(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 1.0f; // expect: unguarded-thread-index
}

// The grid rounds the tile count up, so `y` may land one tile past the row.
__global__ void relax_row(int* adj, int upper, int pivot, int nodes) {
    int y = blockIdx.x;
    if (y >= pivot) y++;
    const int col = y * 32 + threadIdx.x;
    adj[pivot * upper + col] = 0; // expect: unguarded-thread-index
}

// `offset` grows on every trip: one step is not all it takes.
__global__ void gather_planes(const float* in, float* out, int planes, int plane_size) {
    int offset = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int p = 0; p < planes; ++p) {
        if (p > 0) offset += plane_size;
        acc += in[offset]; // expect: unguarded-thread-index
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc; // expect: unguarded-thread-index
}

void run(float* d_x, double* d_field, int* d_adj, const float* d_in, float* d_out, int n,
         int nodes, int planes, int plane_size) {
    std::thread worker([&]() {
        const int blocks = (n + 127) / 128;
        hipLaunchKernelGGL(scale_rows, blocks, 128, 0, 0, d_x, n, 2.0f);
        HIP_CHECK(hipGetLastError());
    });
    worker.join();
    hipLaunchKernelGGL(zero_samples, kSampleBlocks, 256, 0, 0, d_x, kSamples);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(clear_cells, (CELLS + 15) / 16, 16, 0, 0, d_field, CELLS);
    HIP_CHECK(hipGetLastError());
    const int padded = (n + 255) / 256 * 256;
    hipLaunchKernelGGL(fill, padded / 256, 256, 0, 0, d_x, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(relax_row, (nodes + 31) / 32, 32, 0, 0, d_adj, nodes, 0, nodes);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(gather_planes, (n + 255) / 256, 256, 0, 0, d_in, d_out, planes, plane_size);
    HIP_CHECK(hipGetLastError());
}
