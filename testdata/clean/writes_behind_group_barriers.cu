// Clean: a barrier behind a test on the group a thread belongs to, where every launch makes the
// block exactly one group of threads: the test is the block's own.
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

// A block of THREADS_PER_ITEM threads works on one item: `threadIdx.x / THREADS_PER_ITEM` is 0.
__global__ void scoreItems(const float* weights, float* scores, int numItems) {
    __shared__ float partial[THREADS_PER_ITEM];
    int item = threadIdx.x / THREADS_PER_ITEM + blockIdx.x * (blockDim.x / THREADS_PER_ITEM);
    int lane = threadIdx.x % THREADS_PER_ITEM;
    if (item < numItems) {
        partial[lane] = weights[item * THREADS_PER_ITEM + lane];
        __syncthreads();
        for (int s = THREADS_PER_ITEM / 2; s > 0; s >>= 1) {
            if (lane < s) partial[lane] += partial[lane + s];
            __syncthreads();
        }
        if (lane == 0) scores[item] = partial[0];
    }
}

int main(int argc, char** argv) {
    int numItems = argc > 1 ? atoi(argv[1]) : 100;
    float* weights = nullptr;
    float* scores = nullptr;
    CUDA_CHECK(cudaMalloc(&weights, sizeof(float) * numItems * THREADS_PER_ITEM));
    CUDA_CHECK(cudaMalloc(&scores, sizeof(float) * numItems));
    CUDA_CHECK(cudaMemset(weights, 0, sizeof(float) * numItems * THREADS_PER_ITEM));
    scoreItems<<<numItems, THREADS_PER_ITEM>>>(weights, scores, numItems);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(weights));
    CUDA_CHECK(cudaFree(scores));
    return 0;
}
