// Bad: pointers allocated on some branches only, then copied into or freed on every path.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
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


__global__ void fill(int* data, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = value;
    }
}

static void timeAllocation(size_t bytes, int kind) {
    int* buffer;
    if (kind == 0)
        CUDA_CHECK(cudaMalloc(&buffer, bytes));
    else if (kind == 1)
        CUDA_CHECK(cudaMallocManaged(&buffer, bytes));
    else if (kind == 2)
        CUDA_CHECK(cudaMallocHost(&buffer, bytes));

    if (kind == 2) {
        CUDA_CHECK(cudaFreeHost(buffer));
    } else {
        CUDA_CHECK(cudaFree(buffer)); // expect: uninitialized-device-pointer
    }
}

static void upload(const std::vector<int>& h_data, bool useStaging) {
    const int n = static_cast<int>(h_data.size());
    int* d_data;
    int* h_staging;
    if (useStaging) {
        CUDA_CHECK(cudaMallocHost(&h_staging, n * sizeof(int)));
        memcpy(h_staging, h_data.data(), n * sizeof(int));
        CUDA_CHECK(cudaMalloc(&d_data, n * sizeof(int)));
    }
    CUDA_CHECK(cudaMemcpy(d_data, h_data.data(), n * sizeof(int), cudaMemcpyHostToDevice)); // expect: uninitialized-device-pointer
    fill<<<(n + 255) / 256, 256>>>(d_data, 1, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_data));
    if (useStaging) CUDA_CHECK(cudaFreeHost(h_staging));
}

int main(int argc, char** argv) {
    const int kind = argc > 1 ? atoi(argv[1]) : 0;
    timeAllocation(1 << 20, kind);
    std::vector<int> data(1 << 16, 7);
    upload(data, argc > 2);
    return 0;
}
