// Clean: kernels that only write their output buffers (never copied to first), producer/consumer kernels,
// and device-to-device copies.
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

__global__ void iota(int* out, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        out[i] = i;
    }
}

__global__ void linspace(float* out, float lo, float hi, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        out[i] = lo + (hi - lo) * i / (count - 1);
    }
}

__global__ void hashValues(const int* keys, unsigned int* hashes, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        unsigned int h = static_cast<unsigned int>(keys[i]) * 2654435761u;
        hashes[i] = h ^ (h >> 16);
    }
}

int main() {
    const int count = 1000;
    int* d_keys = nullptr;
    unsigned int* d_hashes = nullptr;
    float* d_grid = nullptr;
    float* d_gridCopy = nullptr;
    HIP_CHECK(hipMalloc(&d_keys, count * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_hashes, count * sizeof(unsigned int)));
    HIP_CHECK(hipMalloc(&d_grid, count * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_gridCopy, count * sizeof(float)));

    const int threads = 256;
    const int blocks = (count + threads - 1) / threads;
    iota<<<blocks, threads>>>(d_keys, count);
    HIP_CHECK(hipGetLastError());
    hashValues<<<blocks, threads>>>(d_keys, d_hashes, count);
    HIP_CHECK(hipGetLastError());
    linspace<<<blocks, threads>>>(d_grid, -1.0f, 1.0f, count);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(d_gridCopy, d_grid, count * sizeof(float), hipMemcpyDeviceToDevice));

    unsigned int h_hashes[4];
    float h_grid[4];
    HIP_CHECK(hipMemcpy(h_hashes, d_hashes, sizeof(h_hashes), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(h_grid, d_gridCopy, sizeof(h_grid), hipMemcpyDeviceToHost));
    printf("hash[1] = %u grid[1] = %f\n", h_hashes[1], h_grid[1]);

    HIP_CHECK(hipFree(d_keys));
    HIP_CHECK(hipFree(d_hashes));
    HIP_CHECK(hipFree(d_grid));
    HIP_CHECK(hipFree(d_gridCopy));
    return 0;
}
