// Clean: kernels launched through libraries' launch calls rather than `<<<>>>`. A batched
// logic simulator in the style of RTL-to-CUDA generators builds a taskflow graph whose kernel
// nodes run one thread per testbench, the grid the batch divided into whole blocks; a second
// stage uses cuda-api-wrappers' `cuda::launch` with a configuration of exactly as many threads
// as rows. Every launch makes each access safe, so nothing is reported.
#include <taskflow/cuda/cudaflow.hpp>
#include <cuda/api.hpp>
#include "hip_check.h"

#define BATCH_SIZE 4096
#define SIGNALS 64

__global__ void changeRequest(unsigned char* signals, int* change) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    change[tid] = signals[tid + BATCH_SIZE * 3] != signals[tid + BATCH_SIZE * 7];
}

__global__ void evaluateTask(unsigned char* signals, const int* change, bool* done) {
    if (done[blockDim.x * blockIdx.x + threadIdx.x] || !change[blockDim.x * blockIdx.x + threadIdx.x]) return;
    signals[(blockDim.x * blockIdx.x + threadIdx.x) + BATCH_SIZE * 12] =
        signals[(blockDim.x * blockIdx.x + threadIdx.x) + BATCH_SIZE * 5] & 1;
}

__global__ void scaleRows(float* rows, float factor, int count) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    rows[row] *= factor;
}

void simulate(tf::hipFlow& flow, unsigned char* signals, int* change, bool* done) {
    int num_threads = BATCH_SIZE < 128 ? BATCH_SIZE : 128;
    int num_blocks = BATCH_SIZE / num_threads;
    auto request = flow.kernel(num_blocks, num_threads, 0, changeRequest, signals, change);
    auto task = flow.kernel(dim3(num_blocks), dim3(num_threads), 0, evaluateTask, signals, change, done);
    request.precede(task);
}

void scale(float* rows) {
    const int count = 256 * 40;
    auto config = cuda::make_launch_config(count / 256, 256);
    cuda::launch(scaleRows, config, rows, 2.0f, count);
}

int main() {
    unsigned char* signals;
    int* change;
    bool* done;
    float* rows;
    HIP_CHECK(hipMalloc(&signals, BATCH_SIZE * SIGNALS));
    HIP_CHECK(hipMalloc(&change, BATCH_SIZE * sizeof(int)));
    HIP_CHECK(hipMalloc(&done, BATCH_SIZE * sizeof(bool)));
    HIP_CHECK(hipMalloc(&rows, 256 * 40 * sizeof(float)));
    HIP_CHECK(hipMemset(signals, 0, BATCH_SIZE * SIGNALS));
    HIP_CHECK(hipMemset(done, 0, BATCH_SIZE * sizeof(bool)));
    HIP_CHECK(hipMemset(rows, 0, 256 * 40 * sizeof(float)));
    tf::Taskflow taskflow;
    tf::Executor executor;
    taskflow.emplace([&](tf::hipFlow& flow) { simulate(flow, signals, change, done); });
    executor.run(taskflow).wait();
    scale(rows);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(signals));
    HIP_CHECK(hipFree(change));
    HIP_CHECK(hipFree(done));
    HIP_CHECK(hipFree(rows));
    return 0;
}
