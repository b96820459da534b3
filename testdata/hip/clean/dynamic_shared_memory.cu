// Clean: `extern __shared__` arrays that every launch sizes for what the kernel indexes, and one
// whose launch the analysis cannot size.
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

extern __shared__ float sdata[];

__global__ void blockScan(const float* in, float* out, int n) {
    extern __shared__ float temp[];
    int tid = threadIdx.x;
    int base = blockIdx.x * 2 * blockDim.x;
    temp[tid] = (base + tid < n) ? in[base + tid] : 0.0f;
    temp[tid + blockDim.x] = (base + tid + blockDim.x < n) ? in[base + tid + blockDim.x] : 0.0f;
    __syncthreads();
    if (base + tid < n) out[base + tid] = temp[tid] + temp[tid + blockDim.x];
}

__global__ void reduceSum(const float* in, float* out, int n) {
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// The row length is an argument; the launch gives exactly that many floats.
__global__ void normalizeRows(float* rows, int width) {
    extern __shared__ float row[];
    float* mine = rows + blockIdx.x * width;
    for (int c = threadIdx.x; c < width; c += blockDim.x) row[c] = mine[c];
    __syncthreads();
    for (int c = threadIdx.x; c < width; c += blockDim.x) mine[c] = row[c] / row[0];
}

__global__ void gather(const float* in, float* out, int n) {
    extern __shared__ float cache[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) cache[threadIdx.x] = in[i];
    __syncthreads();
    if (i < n) out[i] = cache[blockDim.x - 1 - threadIdx.x];
}

// One partial sum per thread, with the block size the occupancy API picks.
__global__ void dotPartial(const double* a, const double* b, double* partial, int n) {
    extern __shared__ double sums[];
    double acc = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += a[i] * b[i];
    sums[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        double total = 0.0;
        for (int t = 0; t < blockDim.x; ++t) total += sums[t];
        partial[blockIdx.x] = total;
    }
}

void dot(const double* dA, const double* dB, double* dPartial, int n) {
    int minGrid = 0, blockSize = 0;
    HIP_CHECK(hipOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, dotPartial));
    hipLaunchKernelGGL(dotPartial, minGrid, blockSize, blockSize * sizeof(double), 0, dA, dB, dPartial, n);
    HIP_CHECK(hipGetLastError());
}

void run(const float* dIn, float* dOut, float* dRows, int n, int rows, int width, size_t bytes) {
    const int block = 256;
    int scanBlocks = (n + 2 * block - 1) / (2 * block);
    hipLaunchKernelGGL(blockScan, scanBlocks, block, 2 * block * sizeof(float), 0, dIn, dOut, n);
    HIP_CHECK(hipGetLastError());

    dim3 threads(block);
    dim3 grid((n + block - 1) / block);
    hipLaunchKernelGGL(reduceSum, grid, threads, threads.x * sizeof(float), 0, dIn, dOut, n);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(normalizeRows, rows, 128, width * sizeof(float), 0, dRows, width);
    HIP_CHECK(hipGetLastError());

    // a byte count computed elsewhere: not known, so nothing is said
    hipLaunchKernelGGL(gather, (n + block - 1) / block, block, bytes, 0, dIn, dOut, n);
    HIP_CHECK(hipGetLastError());
}

// The moving average with each block's window indexed by the thread's place in the block.
__global__ void movingAverage(const float* in, float* out, int n) {
    extern __shared__ float window[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    window[threadIdx.x] = in[min(i, n - 1)];
    __syncthreads();
    if (i < n && threadIdx.x > 0) out[i] = 0.5f * (window[threadIdx.x] + window[threadIdx.x - 1]);
}

// One block holds the whole input: the global index is the thread's index.
__global__ void scanSmall(const int* in, int* out, int n) {
    extern __shared__ int partial[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[i] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        int v = threadIdx.x >= stride ? partial[threadIdx.x - stride] : 0;
        __syncthreads();
        partial[threadIdx.x] += v;
        __syncthreads();
    }
    if (i < n) out[i] = partial[threadIdx.x];
}

// A staging buffer as large as the whole problem, its byte count computed by the caller.
__global__ void stageAll(const float* in, float* out, int n) {
    extern __shared__ float staged[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    staged[i] = in[min(i, n - 1)];
    __syncthreads();
    if (i < n) out[i] = staged[n - 1 - i];
}

void smooth(const float* dIn, float* dOut, int* dScanIn, int* dScanOut, int n, size_t stagedBytes) {
    const int threads = 256;
    hipLaunchKernelGGL(movingAverage, (n + threads - 1) / threads, threads, threads * sizeof(float), 0, dIn, dOut, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(scanSmall, 1, 1024, 1024 * sizeof(int), 0, dScanIn, dScanOut, n);
    HIP_CHECK(hipGetLastError());
    hipLaunchKernelGGL(stageAll, 1, threads, stagedBytes, 0, dIn, dOut, n);
    HIP_CHECK(hipGetLastError());
}
