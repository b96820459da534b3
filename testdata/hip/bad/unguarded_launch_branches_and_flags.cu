// Bad: the shapes of launch_branches_and_flags.cu where threads do run past the data. A grid
// chosen in branches that rounds up on one of them, a host helper returning a rounded-up grid,
// a rounding helper written as a choice over a count the block does not divide, an offset
// stepped a counted number of times from a position that already spans the grid, a gather
// whose positions are still the thread's own on one path, a flag set under a test of a value
// that changes afterwards, a copy of a row number taken after it changed, and buffers smaller
// than the grid they are launched with. Each access needs its test.
#include "hip_check.h"

static unsigned div_up(unsigned total, unsigned per) {
    return (total % per == 0) ? (total / per) : (total / per + 1);
}

__global__ void smooth(const float* in, float* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 0.5f * in[i]; // expect: unguarded-thread-index
}

__global__ void bias(float* x, int n, float b) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] += b; // expect: unguarded-thread-index
}

__global__ void offsets(int* data, int n) {
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    data[id] += n; // expect: unguarded-thread-index
}

// Planes of a volume: the first plane's index already spans the grid, which rounds up.
__global__ void sum_planes(const float* in, float* out, int n, int plane) {
    int at = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int p = 0; p < 4; p++) {
        acc += in[at]; // expect: unguarded-thread-index
        at += plane;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc; // expect: unguarded-thread-index
}

// The position gathered is the thread's own when it keeps its slot.
__global__ void gather_sorted(const float* values, float* sorted, const int* order, int n) {
    __shared__ int slot_of[256];
    const int base = blockIdx.x * 256;
    int slot = threadIdx.x;
    slot_of[threadIdx.x] = order[threadIdx.x];
    __syncthreads();
    if (slot_of[threadIdx.x] >= 0) slot = slot_of[threadIdx.x];
    sorted[base + threadIdx.x] = values[base + slot]; // expect: unguarded-thread-index, unguarded-thread-index
}

// The tested position moves after the flag is set: the flag says nothing of the new one.
__global__ void mark_valid(const float* in, float* out, int n, int shift) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = false;
    if (x < n) {
        valid = true;
    }
    x += shift;
    if (valid) out[x] = in[0]; // expect: unguarded-thread-index
}

// The row is copied after it became an element offset.
__global__ void row_norm(const float* m, float* norms, int rows, int cols) {
    int row = (blockDim.x / 32) * blockIdx.x + threadIdx.x / 32;
    const bool in_rows = row < rows;
    row = row * cols;
    const int out = row;
    if (in_rows && threadIdx.x % 32 == 0) norms[out] = m[row]; // expect: unguarded-thread-index, unguarded-thread-index
}

// One slot per thread, but the buffer holds the count before padding.
__global__ void seed_states(unsigned seed, unsigned* state) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    state[i] = seed ^ i; // expect: unguarded-thread-index
}

// Each block writes 9 planes of ranges, the buffer holds 8 per block.
constexpr unsigned kColumns(5 * 5);
constexpr unsigned kPlanes(9);
__global__ void plane_ranges(const float* volume, float* ranges) {
    unsigned at(2 * (threadIdx.y + kColumns * kPlanes * blockIdx.x));
    for (int p(0); p < kPlanes; ++p) {
        if (threadIdx.x == 0) {
            ranges[at] = volume[0]; // expect: unguarded-thread-index
            at += 2 * kColumns;
        }
    }
}

dim3 cover(int count, int threads) {
    return dim3((count + threads - 1) / threads);
}

void run(const float* d_in, float* d_out, float* d_x, int* d_data, const int* d_order,
         const float* d_m, float* d_norms, int n, int rows, int cols, bool exact) {
    int blocks = n / 256;
    if (!exact) blocks = (n + 255) / 256;
    smooth<<<blocks, 256>>>(d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    bias<<<cover(n, 128), 128>>>(d_x, n, 1.0f);
    offsets<<<div_up(n, 64), 64>>>(d_data, n);
    HIP_CHECK(hipGetLastError());
    sum_planes<<<(n + 255) / 256, 256>>>(d_in, d_out, n, n);
    gather_sorted<<<(n + 255) / 256, 256>>>(d_in, d_out, d_order, n);
    mark_valid<<<(n + 255) / 256, 256>>>(d_in, d_out, n, 1);
    HIP_CHECK(hipGetLastError());
    row_norm<<<(rows + 3) / 4, 128>>>(d_m, d_norms, rows, cols);
    HIP_CHECK(hipGetLastError());

    const int state_count = (rows / 256 + 1) * 256;
    unsigned* d_state;
    HIP_CHECK(hipMalloc((void**)&d_state, sizeof(unsigned) * rows));
    seed_states<<<state_count / 256, 256>>>(42u, d_state);
    unsigned live_blocks = 0;
    HIP_CHECK(hipMemcpy(&live_blocks, d_state, sizeof(unsigned), hipMemcpyDeviceToHost));
    float* d_ranges;
    HIP_CHECK(hipMalloc((void**)&d_ranges, live_blocks * kColumns * (kPlanes - 1) * 2 * sizeof(float)));
    const dim3 columns{16, kColumns, 1};
    plane_ranges<<<live_blocks, columns>>>(d_in, d_ranges);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_ranges));
    HIP_CHECK(hipFree(d_state));
}
