// Bad: pointers allocated on some branches only, then copied into or freed on every path.
#include <cstdio>
#include <cstdlib>
#include <cstring>
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


__global__ void fill(int* data, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = value;
    }
}

static void timeAllocation(size_t bytes, int kind) {
    int* buffer;
    if (kind == 0)
        HIP_CHECK(hipMalloc(&buffer, bytes));
    else if (kind == 1)
        HIP_CHECK(hipMallocManaged(&buffer, bytes));
    else if (kind == 2)
        HIP_CHECK(hipHostMalloc(&buffer, bytes));

    if (kind == 2) {
        HIP_CHECK(hipHostFree(buffer));
    } else {
        HIP_CHECK(hipFree(buffer)); // expect: uninitialized-device-pointer
    }
}

static void upload(const std::vector<int>& h_data, bool useStaging) {
    const int n = static_cast<int>(h_data.size());
    int* d_data;
    int* h_staging;
    if (useStaging) {
        HIP_CHECK(hipHostMalloc(&h_staging, n * sizeof(int)));
        memcpy(h_staging, h_data.data(), n * sizeof(int));
        HIP_CHECK(hipMalloc(&d_data, n * sizeof(int)));
    }
    HIP_CHECK(hipMemcpy(d_data, h_data.data(), n * sizeof(int), hipMemcpyHostToDevice)); // expect: uninitialized-device-pointer
    fill<<<(n + 255) / 256, 256>>>(d_data, 1, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_data));
    if (useStaging) HIP_CHECK(hipHostFree(h_staging));
}

int main(int argc, char** argv) {
    const int kind = argc > 1 ? atoi(argv[1]) : 0;
    timeAllocation(1 << 20, kind);
    std::vector<int> data(1 << 16, 7);
    upload(data, argc > 2);
    return 0;
}
