// Clean: indices bounded by construction (i % n, min(i, n - 1), i & mask), block-local threadIdx-only indices,
// per-block outputs indexed by blockIdx alone, and a histogram initialised with hipMemset.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

#define LUT_SIZE 256

// Every thread touches the ring; wrap-around is intended.
__global__ void ringStamp(int* ring, int capacity) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMax(&ring[tid % capacity], tid);
}

// Loads clamp to the last element; only in-range threads store.
__global__ void clampedGather(const float* src, float* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = src[min(i, n - 1)];
    if (i < n) {
        dst[i] = v;
    }
}

__global__ void applyLut(const float* lut, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float gain = lut[i & (LUT_SIZE - 1)];
    if (i < n) {
        out[i] *= gain;
    }
}

__global__ void blockTimestamps(long long* stamps, int* blockIds) {
    stamps[threadIdx.x] = clock64();
    if (threadIdx.x == 0) {
        blockIds[blockIdx.x] = blockIdx.x;
    }
}

__global__ void histogram(const unsigned int* keys, unsigned int* bins, int numKeys, unsigned int numBins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < numKeys; i += blockDim.x * gridDim.x) {
        unsigned int b = keys[i] % numBins;
        atomicAdd(&bins[b], 1u);
    }
}

__global__ void blockMaxima(const float* values, float* perBlock, int n) {
    __shared__ float best;
    if (threadIdx.x == 0) {
        best = -1.0e30f;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = values[i];
        atomicMax(reinterpret_cast<int*>(&best), __float_as_int(v > 0.0f ? v : 0.0f));
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        perBlock[blockIdx.x] = best;
    }
}

int main() {
    const int n = 10000;
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    const int capacity = 64;
    const unsigned int numBins = 32;

    std::vector<float> h_src(n), h_lut(LUT_SIZE);
    std::vector<unsigned int> h_keys(n);
    for (int i = 0; i < n; ++i) {
        h_src[i] = static_cast<float>(rand()) / RAND_MAX;
        h_keys[i] = static_cast<unsigned int>(rand());
    }
    for (int i = 0; i < LUT_SIZE; ++i) {
        h_lut[i] = 1.0f + i / 255.0f;
    }

    int* d_ring = nullptr;
    float *d_src = nullptr, *d_dst = nullptr, *d_lut = nullptr, *d_perBlock = nullptr;
    long long* d_stamps = nullptr;
    int* d_blockIds = nullptr;
    unsigned int *d_keys = nullptr, *d_bins = nullptr;
    HIP_CHECK(hipMalloc(&d_ring, capacity * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_src, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_dst, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_lut, LUT_SIZE * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_perBlock, blocks * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_stamps, threads * sizeof(long long)));
    HIP_CHECK(hipMalloc(&d_blockIds, blocks * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_keys, n * sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&d_bins, numBins * sizeof(unsigned int)));

    HIP_CHECK(hipMemset(d_ring, 0, capacity * sizeof(int)));
    HIP_CHECK(hipMemset(d_bins, 0, numBins * sizeof(unsigned int)));
    HIP_CHECK(hipMemcpy(d_src, h_src.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_lut, h_lut.data(), LUT_SIZE * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_keys, h_keys.data(), n * sizeof(unsigned int), hipMemcpyHostToDevice));

    hipLaunchKernelGGL(ringStamp, blocks, threads, 0, 0, d_ring, capacity);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(clampedGather, blocks, threads, 0, 0, d_src, d_dst, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(applyLut, blocks, threads, 0, 0, d_lut, d_dst, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(blockTimestamps, blocks, threads, 0, 0, d_stamps, d_blockIds);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(histogram, 8, threads, 0, 0, d_keys, d_bins, n, numBins);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(blockMaxima, blocks, threads, 0, 0, d_src, d_perBlock, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    std::vector<unsigned int> h_bins(numBins);
    HIP_CHECK(hipMemcpy(h_bins.data(), d_bins, numBins * sizeof(unsigned int), hipMemcpyDeviceToHost));
    printf("bin[0] = %u\n", h_bins[0]);

    HIP_CHECK(hipFree(d_ring));
    HIP_CHECK(hipFree(d_src));
    HIP_CHECK(hipFree(d_dst));
    HIP_CHECK(hipFree(d_lut));
    HIP_CHECK(hipFree(d_perBlock));
    HIP_CHECK(hipFree(d_stamps));
    HIP_CHECK(hipFree(d_blockIds));
    HIP_CHECK(hipFree(d_keys));
    HIP_CHECK(hipFree(d_bins));
    return 0;
}
