// Bad: the kernel of clean/writes_behind_group_barriers.cu, launched with two items per block:
// the last block of an odd count holds one item in range and one past it.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
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
    HIP_CHECK(hipMalloc(&weights, sizeof(float) * numItems * THREADS_PER_ITEM));
    HIP_CHECK(hipMalloc(&scores, sizeof(float) * numItems));
    HIP_CHECK(hipMemset(weights, 0, sizeof(float) * numItems * THREADS_PER_ITEM));
    scoreItems<<<(numItems + 1) / 2, 2 * THREADS_PER_ITEM>>>(weights, scores, numItems);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(weights));
    HIP_CHECK(hipFree(scores));
    return 0;
}
