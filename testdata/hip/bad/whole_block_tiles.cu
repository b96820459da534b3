// Bad: the same shapes as clean/writes_behind_tile_barriers.cu, launched so that the threads of
// a block disagree: a path count the host never rounds, a point count that is not a multiple of
// the tile.
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

#define TILE 256

template <int THREADS>
__global__ void countInTheMoney(const float* prices, int* counts, int numPaths, float strike) {
    __shared__ int hits[THREADS];
    __shared__ int total;
    if (threadIdx.x == 0) total = 0;
    __syncthreads();
    for (int path = threadIdx.x; path < numPaths; path += THREADS) {
        hits[threadIdx.x] = prices[blockIdx.x * numPaths + path] > strike;
        __syncthreads(); // expect: divergent-barrier
        if (threadIdx.x == 0) {
            for (int t = 0; t < THREADS; ++t) total += hits[t];
        }
        __syncthreads(); // expect: divergent-barrier
    }
    if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

__global__ void smoothPoints(const float* in, float* out, int numPoints) {
    __shared__ float tile[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= numPoints) return;
    tile[threadIdx.x] = in[i];
    __syncthreads(); // expect: divergent-barrier
    int left = threadIdx.x > 0 ? threadIdx.x - 1 : threadIdx.x;
    out[i] = 0.5f * (tile[threadIdx.x] + tile[left]);
}

static void runSteps(const float* prices, int* counts, int numPaths, int numSteps) {
    const int threads = 256;
    hipLaunchKernelGGL(HIP_KERNEL_NAME(countInTheMoney<threads>), numSteps, threads, 0, 0, prices, counts, numPaths, 1.0f);
    HIP_CHECK(hipGetLastError());
}

int main(int argc, char** argv) {
    int numPaths = argc > 1 ? atoi(argv[1]) : 32000;
    int numSteps = argc > 2 ? atoi(argv[2]) : 100;
    const int thousands = argc > 3 ? atoi(argv[3]) : 4;

    float* prices = nullptr;
    int* counts = nullptr;
    HIP_CHECK(hipMalloc(&prices, sizeof(float) * numPaths * numSteps));
    HIP_CHECK(hipMalloc(&counts, sizeof(int) * numSteps));
    HIP_CHECK(hipMemset(prices, 0, sizeof(float) * numPaths * numSteps));
    runSteps(prices, counts, numPaths, numSteps);

    const int numPoints = thousands * 1000;
    float *in = nullptr, *out = nullptr;
    HIP_CHECK(hipMalloc(&in, sizeof(float) * numPoints));
    HIP_CHECK(hipMalloc(&out, sizeof(float) * numPoints));
    HIP_CHECK(hipMemset(in, 0, sizeof(float) * numPoints));
    hipLaunchKernelGGL(smoothPoints, (numPoints + TILE - 1) / TILE, TILE, 0, 0, in, out, numPoints);
    HIP_CHECK(hipGetLastError());

    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(in));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(prices));
    HIP_CHECK(hipFree(counts));
    return 0;
}
