// thread-index-overflow: 32-bit thread indices compared with 64-bit element counts.
#include <cstdint>
#include <cstddef>
#include <cuda_runtime.h>

__global__ void fillInt(float* x, float v, size_t n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x; // expect: thread-index-overflow
    if (i < n) {
        x[i] = v;
    }
}

// Stored into a size_t, but multiplied as unsigned int first.
__global__ void fillWide(float* x, float v, int64_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x; // expect: thread-index-overflow
    if (i >= n) return;
    x[i] = v;
}

// A grid-stride loop over an int index.
__global__ void axpy(const float* x, float* y, float a, long long n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) { // expect: thread-index-overflow
        y[i] += a * x[i];
    }
}

// The count offsets the pointer once (to the second of two arrays packed together): it is
// the number of elements, not a row stride.
__global__ void fillSecond(float* packed, float v, size_t n) {
    packed += n;
    int i = blockIdx.x * blockDim.x + threadIdx.x; // expect: thread-index-overflow
    if (i < n) packed[i] = v;
}

// 64-bit arithmetic, 32-bit counts and rows are fine.
__global__ void fillOk(float* x, float v, size_t n, int m, size_t rows) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < m) x[j] = v;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows) x[r] = v;
    for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += (int64_t)blockDim.x * gridDim.x) {
        x[k] = v;
    }
}

// Launched with a grid that grows with the count: past 2^32 threads the product wraps.
__global__ void scaleLaunched(float* x, float a, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x; // expect: thread-index-overflow
    if (i < n) x[i] *= a;
}

// A fixed grid bounds the start, but the `int` index still counts past 2^31 as it strides.
__global__ void scaleStrided(float* x, float a, size_t n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) { // expect: thread-index-overflow
        x[i] *= a;
    }
}

cudaError_t launchScale(float* x, size_t n) {
    scaleLaunched<<<(unsigned)((n + 255) / 256), 256>>>(x, 2.0f, n);
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) return status;
    scaleStrided<<<64, 256>>>(x, 2.0f, n);
    return cudaGetLastError();
}
