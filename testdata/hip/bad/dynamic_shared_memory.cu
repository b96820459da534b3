// Bad: `extern __shared__` arrays indexed past the dynamic shared memory their launches give:
// two slots per thread with one slot's bytes, a `float2` array sized with `sizeof(int)`, and a
// launch that leaves the byte count out.
#include <cstdio>
#include <hip/hip_runtime.h>

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error %s\n", hipGetErrorString(err_));     \
            return;                                                           \
        }                                                                     \
    } while (0)

// Each thread loads two elements into the scan buffer: it needs 2 * blockDim.x floats.
__global__ void blockScan(const float* in, float* out, int n) {
    extern __shared__ float temp[];
    int tid = threadIdx.x;
    int base = blockIdx.x * 2 * blockDim.x;
    temp[tid] = (base + tid < n) ? in[base + tid] : 0.0f;
    temp[tid + blockDim.x] = // expect: out-of-range-access
        (base + tid + blockDim.x < n) ? in[base + tid + blockDim.x] : 0.0f;
    __syncthreads();
    if (base + tid < n) out[base + tid] = temp[tid];
}

// Complex samples staged per thread, with the buffer sized for ints.
__global__ void stageSamples(const float2* samples, float2* spectrum, int count) {
    extern __shared__ float2 staged[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        staged[threadIdx.x] = samples[i]; // expect: out-of-range-access
        spectrum[i] = staged[threadIdx.x]; // expect: out-of-range-access
    }
}

// A per-block histogram in dynamic shared memory, launched without a byte count.
__global__ void histogram(const unsigned char* data, unsigned int* bins, int n) {
    extern __shared__ unsigned int localBins[];
    if (threadIdx.x < 256) localBins[threadIdx.x] = 0; // expect: out-of-range-access
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&localBins[data[i]], 1u); // expect: out-of-range-access
    }
    __syncthreads();
    if (threadIdx.x < 256) atomicAdd(&bins[threadIdx.x], localBins[threadIdx.x]); // expect: out-of-range-access
}

// A block-wise moving average that stages its inputs in dynamic shared memory, indexed with the
// global index instead of the thread's index in its block: every block past the first writes
// past its 256 floats.
__global__ void movingAverage(const float* in, float* out, int n) {
    extern __shared__ float window[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    window[i] = in[min(i, n - 1)]; // expect: unguarded-thread-index
    __syncthreads();
    if (i < n && threadIdx.x > 0) out[i] = 0.5f * (window[i] + window[i - 1]);
}

void smooth(const float* dIn, float* dOut, int n) {
    const int threads = 256;
    movingAverage<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(dIn, dOut, n);
    HIP_CHECK(hipGetLastError());
}

void run(const float* dIn, float* dOut, const float2* dSamples, float2* dSpectrum,
         const unsigned char* dData, unsigned int* dBins, int n) {
    const int block = 256;
    int scanBlocks = (n + 2 * block - 1) / (2 * block);
    blockScan<<<scanBlocks, block, block * sizeof(float)>>>(dIn, dOut, n);
    HIP_CHECK(hipGetLastError());

    int threads = 128;
    stageSamples<<<(n + threads - 1) / threads, threads, threads * sizeof(int)>>>(dSamples, dSpectrum, n);
    HIP_CHECK(hipGetLastError());

    histogram<<<64, 256>>>(dData, dBins, n);
    HIP_CHECK(hipGetLastError());
}
