// Bad: the kernel of clean/writes_behind_group_barriers.cu, launched with two items per block:
// the last block of an odd count holds one item in range and one past it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

#define THREADS_PER_ITEM 128

__global__ void scoreItems(const float* weights, float* scores, int numItems) {
    __shared__ float partial[2 * THREADS_PER_ITEM];
    int item = threadIdx.x / THREADS_PER_ITEM + blockIdx.x * (blockDim.x / THREADS_PER_ITEM);
    int lane = threadIdx.x % THREADS_PER_ITEM;
    if (item < numItems) {
        partial[threadIdx.x] = weights[item * THREADS_PER_ITEM + lane];
        __syncthreads(); // expect: divergent-barrier
        if (lane == 0) {
            float sum = 0.0f;
            for (int t = 0; t < THREADS_PER_ITEM; ++t) sum += partial[threadIdx.x + t];
            scores[item] = sum;
        }
    }
}

int main(int argc, char** argv) {
    int numItems = argc > 1 ? atoi(argv[1]) : 100;
    float* weights = nullptr;
    float* scores = nullptr;
    CUDA_CHECK(cudaMalloc(&weights, sizeof(float) * numItems * THREADS_PER_ITEM));
    CUDA_CHECK(cudaMalloc(&scores, sizeof(float) * numItems));
    CUDA_CHECK(cudaMemset(weights, 0, sizeof(float) * numItems * THREADS_PER_ITEM));
    scoreItems<<<(numItems + 1) / 2, 2 * THREADS_PER_ITEM>>>(weights, scores, numItems);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(weights));
    CUDA_CHECK(cudaFree(scores));
    return 0;
}
