// Clean: launches whose geometry keeps every thread inside the data, written the ways benchmark
// and application code write them: a worker thread's lambda, a floor division of a size read
// through a getter or recomputed, a grid that shrinks with a host loop counter, one block per
// tile of a diagonal passed to the kernel, a tile index moved past a skipped tile, a layout
// offset added once, and an offset walking a group alongside the counter its loop tests
// (constant grids are in launch_constants.cu). No index needs a test.
#include <cmath>
#include <thread>
#include <vector>
#include "hip_check.h"

// One thread per point.
__global__ void init_points(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 0.0f;
}

struct Image {
    int width() const;
    int height() const;
};

// One thread per pixel of an image whose sides are multiples of the block.
__global__ void blur_rows(const unsigned char* in, unsigned char* out, int rows, int cols) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    out[row * cols + col] = in[row * cols + col] / 2;
}

// The trailing submatrix of a blocked factorisation shrinks as the host loop advances.
__global__ void update_trailing(float* m, int dim, int offset) {
    const int row = offset + (blockIdx.y + 1) * 16 + threadIdx.y;
    const int col = offset + (blockIdx.x + 1) * 16 + threadIdx.x;
    m[row * dim + col] -= m[row * dim + offset] * m[offset * dim + col];
}

// Anti-diagonal `diag` of a wavefront: one block per tile on it, the count passed as `diag`.
__global__ void wavefront(int* score, int tiles, int cols, int diag) {
    const int bx = blockIdx.x;
    const int tile_x = bx + tiles - diag;
    const int tile_y = tiles - bx - 1;
    const int index = cols * 16 * tile_y + 16 * tile_x + threadIdx.x;
    score[index] += 1;
}

// Every tile of the row of tiles except the pivot's: the grid counts the others, and the
// index steps past the pivot.
__global__ void relax_row(int* adj, int upper, int pivot, int others) {
    int y = blockIdx.x;
    if (y >= pivot) y++;
    const int col = y * 32 + threadIdx.x;
    adj[pivot * upper + col] = min(adj[pivot * upper + col], upper);
}

// A grid-stride loop over pooled outputs; the channel offset is added only for one layout.
__global__ void pool_grad(const float* out, float* grad, int nthreads, int channels, int height,
                          int width, bool channel_last) {
    for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < nthreads;
         index += blockDim.x * gridDim.x) {
        int c, n;
        if (!channel_last) {
            c = (index / width / height) % channels;
            n = index / width / height / channels;
        } else {
            c = index % channels;
            n = index / channels / width / height;
        }
        int stride = n * height * width * channels;
        if (!channel_last) stride += c * height * width;
        const float* plane = out + stride;
        grad[index] = plane[0];
    }
}

// One block per quantization group: `offset` walks the group alongside `id`, which the loop
// tests; a later loop sets `offset` again from its own counter.
__global__ void quantize_groups(float4* vals, int group_size, float scale) {
    int id = threadIdx.x;
    int offset = blockIdx.x * group_size + id;
    float4 regs[4];
    int count = 0;
    while (id < group_size && count < 4) {
        regs[count++] = vals[offset];
        offset += blockDim.x;
        id += blockDim.x;
    }
    id = threadIdx.x;
    for (int r = 0; r < count; r++) {
        offset = r * blockDim.x + id;
        if (offset < group_size) {
            float4 q = regs[r];
            q.x *= scale;
            vals[offset + blockIdx.x * group_size] = q;
        }
    }
}

void run_frames(std::vector<unsigned char*>& frames, unsigned char* d_in, unsigned char* d_out,
                int rows, int cols, int threads) {
    std::thread worker([&]() {
        for (unsigned char* frame : frames) {
            HIP_CHECK(hipMemcpy(d_in, frame, rows * cols, hipMemcpyHostToDevice));
            dim3 grid(cols / threads, rows / threads);
            dim3 block(threads, threads);
            blur_rows<<<grid, block>>>(d_in, d_out, rows, cols);
            HIP_CHECK(hipGetLastError());
        }
    });
    worker.join();
}

void run_sizes(const Image& image, unsigned char* d_in, unsigned char* d_out, float* d_points,
               int n, float scale) {
    const int width = image.width();
    const int height = image.height();
    blur_rows<<<dim3(width / 16, height / 16), dim3(16, 16)>>>(d_in, d_out, height, width);
    HIP_CHECK(hipGetLastError());
    n = (int)rint((float)n / scale);
    init_points<<<n / 512, 512>>>(d_points, n);
    HIP_CHECK(hipGetLastError());
}

void run_factorisation(float* d_m, int dim) {
    for (int i = 0; i < dim - 16; i += 16) {
        dim3 grid((dim - i) / 16 - 1, (dim - i) / 16 - 1);
        update_trailing<<<grid, dim3(16, 16)>>>(d_m, dim, i);
        HIP_CHECK(hipGetLastError());
    }
}

void run_wavefront(int* d_score, int cols, int tiles) {
    size_t blocks;
    for (int diag = tiles - 1; diag >= 1; diag--) {
        blocks = diag;
        wavefront<<<blocks, 16>>>(d_score, tiles, cols, diag);
        HIP_CHECK(hipGetLastError());
    }
}

void run_relax(int* d_adj, int nodes) {
    const int tiles = (nodes + 31) / 32;
    const int upper = tiles * 32;
    const int others = tiles - 1;
    for (int pivot = 0; pivot < tiles; pivot++) {
        relax_row<<<others, 32>>>(d_adj, upper, pivot, others);
        HIP_CHECK(hipGetLastError());
    }
}

void run_quantize(float4* d_vals, int total, int groups) {
    quantize_groups<<<dim3(groups), dim3(1024)>>>(d_vals, total / groups / 4, 0.5f);
    HIP_CHECK(hipGetLastError());
}

void run_pool(const float* d_out, float* d_grad, int batch, int channels, int height, int width) {
    const int nthreads = batch * channels * height * width;
    const int blocks = (nthreads + 255) / 256;
    pool_grad<<<blocks, 256>>>(d_out, d_grad, nthreads, channels, height, width, false);
    HIP_CHECK(hipGetLastError());
}
