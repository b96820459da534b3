// Clean: buffers allocated with one element (or a fixed number) per launched thread, grids
// chosen by assignments that each launch sees, and an offset rebuilt inside its guard. Every
// launch keeps these accesses in bounds, so none of them may be reported.
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include "cuda_check.h"

// One random state per thread: the host allocates grid.x * block.x of them.
__global__ void initStates(curandState* states, unsigned long long seed) {
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(seed, tid, 0, &states[tid]);
}

// Two states per thread, the second a whole grid stride away.
__global__ void initPairedStates(curandState* states, unsigned long long seed) {
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int step = gridDim.x * blockDim.x;
    curand_init(seed, tid, 0, &states[tid]);
    curand_init(seed, tid + step, 0, &states[tid + step]);
}

// One output slot per thread; the buffer size is the launch's thread count.
__global__ void squareRoots(const float* input, float* output) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    output[tid] = sqrtf(input[tid]);
}

__global__ void scale(float* data, float factor) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    data[idx] *= factor;
}

// The row offset is rebuilt inside the guard that bounds the row.
__global__ void addBias(float* values, const float* bias, int rows, int width) {
    int row = blockIdx.x;
    int offset = row;
    if (row < rows) {
        offset = offset * width;
        for (int c = threadIdx.x; c < width; c += blockDim.x) {
            values[offset + c] += bias[c];
        }
    }
}

struct Plan {
    curandState* states;
    int gridSize;
};

void initPlan(Plan* plan) {
    CUDA_CHECK(cudaMalloc((void**)&plan->states, plan->gridSize * 256 * sizeof(curandState)));
}

void seedPlan(Plan* plan) {
    initStates<<<plan->gridSize, 256>>>(plan->states, 1234ULL);
    CUDA_CHECK(cudaGetLastError());
}

void run(unsigned int simulations, unsigned int threadsPerBlock, int blockSize, int gridSize) {
    dim3 block;
    dim3 grid;
    block.x = threadsPerBlock;
    grid.x = (simulations + threadsPerBlock - 1) / threadsPerBlock;
    curandState* states = nullptr;
    CUDA_CHECK(cudaMalloc((void**)&states, grid.x * block.x * sizeof(curandState)));
    initStates<<<grid, block>>>(states, 42ULL);
    CUDA_CHECK(cudaGetLastError());

    curandState* paired = nullptr;
    CUDA_CHECK(cudaMalloc((void**)&paired, 2 * grid.x * block.x * sizeof(curandState)));
    initPairedStates<<<grid, block>>>(paired, 7ULL);
    CUDA_CHECK(cudaGetLastError());

    int count = blockSize * gridSize;
    float *input = nullptr, *output = nullptr;
    CUDA_CHECK(cudaMalloc((void**)&input, count * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void**)&output, count * sizeof(float)));
    CUDA_CHECK(cudaMemset(input, 0, count * sizeof(float)));
    squareRoots<<<gridSize, blockSize>>>(input, output);
    CUDA_CHECK(cudaGetLastError());

    // the grid is reassigned; each launch sees the exact grid assigned just before it
    int n = 1 << 20;
    float* data = nullptr;
    CUDA_CHECK(cudaMalloc((void**)&data, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(data, 0, n * sizeof(float)));
    dim3 threads, blocks;
    threads = dim3(512, 1);
    blocks = dim3(n / threads.x, 1);
    scale<<<blocks, threads>>>(data, 2.0f);
    CUDA_CHECK(cudaGetLastError());
    threads = dim3(256, 1);
    blocks = dim3(n / threads.x, 1);
    scale<<<blocks, threads>>>(data, 0.5f);
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaFree(states));
    CUDA_CHECK(cudaFree(paired));
    CUDA_CHECK(cudaFree(input));
    CUDA_CHECK(cudaFree(output));
    CUDA_CHECK(cudaFree(data));
}
