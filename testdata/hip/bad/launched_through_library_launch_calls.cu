// Bad: kernels launched through libraries' launch calls rather than `<<<>>>`. A taskflow
// graph's kernel node and a cuda-api-wrappers `cuda::launch` both round their grids up to whole
// blocks of 128, so the last block runs threads past the end of the buffers, and neither kernel
// tests its index.
#include <taskflow/cuda/cudaflow.hpp>
#include <cuda/api.hpp>
#include "hip_check.h"

__global__ void changeRequest(const unsigned char* signals, int* change, int testbenches) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    change[tid] = signals[tid] != 0;  // expect: unguarded-thread-index
}

__global__ void scaleRows(float* rows, float factor, int count) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    rows[row] *= factor;  // expect: unguarded-thread-index
}

void simulate(tf::hipFlow& flow, const unsigned char* signals, int* change, int testbenches) {
    int num_blocks = (testbenches + 127) / 128;
    flow.kernel(num_blocks, 128, 0, changeRequest, signals, change, testbenches);
}

void scale(float* rows, int count) {
    auto config = cuda::make_launch_config((count + 127) / 128, 128);
    cuda::launch(scaleRows, config, rows, 2.0f, count);
}

int main() {
    const int testbenches = 1000;
    unsigned char* signals;
    int* change;
    float* rows;
    HIP_CHECK(hipMalloc(&signals, testbenches));
    HIP_CHECK(hipMalloc(&change, testbenches * sizeof(int)));
    HIP_CHECK(hipMalloc(&rows, testbenches * sizeof(float)));
    HIP_CHECK(hipMemset(signals, 0, testbenches));
    HIP_CHECK(hipMemset(rows, 0, testbenches * sizeof(float)));
    tf::Taskflow taskflow;
    tf::Executor executor;
    taskflow.emplace([&](tf::hipFlow& flow) { simulate(flow, signals, change, testbenches); });
    executor.run(taskflow).wait();
    scale(rows, testbenches);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(signals));
    HIP_CHECK(hipFree(change));
    HIP_CHECK(hipFree(rows));
    return 0;
}
