// Clean: constant launches, written as simulation and benchmark code writes them: constants at
// file scope, macros of the project's configuration header, a `const dim3` grid, and a grid
// rounded up over constants the block divides. Each grid covers the data exactly.
#include "hip_check.h"
#include "sim_config.h"

const int kPoints = 8192;
const int kThreadsPerBlock = 256;
const int kBlocks = kPoints / kThreadsPerBlock;
const dim3 kTileGrid(32, 32, 1);

// One thread per point, the grid a constant product.
__global__ void init_points(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = 0.0f;
}

// One thread per state, the launch constants from the shared header.
__global__ void seed_states(unsigned* states, unsigned seed, int total) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    states[i] = seed ^ i;
}

// One block per 32 x 32 tile of a 1024 x 1024 matrix.
__global__ void tile_sum(const float* m, float* sums, int width) {
    const int row = blockIdx.y * 32 + threadIdx.y;
    const int col = blockIdx.x * 32 + threadIdx.x;
    atomicAdd(&sums[blockIdx.y * gridDim.x + blockIdx.x], m[row * width + col]);
}

// A 400-cell cube in 8 x 8 x 4 blocks: `(400 + 7) / 8` is exactly 50.
#define CUBE 400
__global__ void clear_cube(double* field, int side) {
    const unsigned z = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned x = blockIdx.z * blockDim.z + threadIdx.z;
    field[(x * side + y) * side + z] = 0.0;
}

void run_constants(float* d_points, unsigned* d_states, const float* d_m, float* d_sums) {
    init_points<<<kBlocks, kThreadsPerBlock>>>(d_points, kPoints);
    HIP_CHECK(hipGetLastError());
    seed_states<<<SIM_NUM_BLOCKS, SIM_THREADS_PER_BLOCK>>>(d_states, 5551212u, SIM_TOTAL_THREADS);
    HIP_CHECK(hipGetLastError());
    tile_sum<<<kTileGrid, dim3(32, 32)>>>(d_m, d_sums, 1024);
    HIP_CHECK(hipGetLastError());
}

void run_cube(double* d_field) {
    dim3 grid((CUBE + 7) / 8, (CUBE + 7) / 8, (CUBE + 3) / 4);
    dim3 block(8, 8, 4);
    clear_cube<<<grid, block>>>(d_field, CUBE);
    HIP_CHECK(hipGetLastError());
}
