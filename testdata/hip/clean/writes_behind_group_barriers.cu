// Clean: a barrier behind a test on the group a thread belongs to, where every launch makes the
// block exactly one group of threads: the test is the block's own.
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
    HIP_CHECK(hipMalloc(&weights, sizeof(float) * numItems * THREADS_PER_ITEM));
    HIP_CHECK(hipMalloc(&scores, sizeof(float) * numItems));
    HIP_CHECK(hipMemset(weights, 0, sizeof(float) * numItems * THREADS_PER_ITEM));
    scoreItems<<<numItems, THREADS_PER_ITEM>>>(weights, scores, numItems);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(weights));
    HIP_CHECK(hipFree(scores));
    return 0;
}
