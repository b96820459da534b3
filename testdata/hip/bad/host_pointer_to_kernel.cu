// Bad: host memory (malloc, new[], stack arrays, std::vector::data()) passed directly as kernel arguments.
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

__global__ void scale(float* data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] *= factor;
    }
}

__global__ void increment(int* counts, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        counts[i] += 1;
    }
}

int main() {
    const int n = 1000;

    float* h_data = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) h_data[i] = static_cast<float>(i);
    scale<<<(n + 255) / 256, 256>>>(h_data, 2.0f, n); // expect: host-pointer-to-kernel
    HIP_CHECK(hipGetLastError());

    int* counts = new int[n]();
    increment<<<(n + 255) / 256, 256>>>(counts, n); // expect: host-pointer-to-kernel
    HIP_CHECK(hipGetLastError());

    float weights[256];
    for (int i = 0; i < 256; ++i) weights[i] = 1.0f / (i + 1);
    scale<<<1, 256>>>(weights, 0.5f, 256); // expect: host-pointer-to-kernel
    HIP_CHECK(hipGetLastError());

    std::vector<float> values(n, 3.0f);
    scale<<<(n + 255) / 256, 256>>>(values.data(), 4.0f, n); // expect: host-pointer-to-kernel
    HIP_CHECK(hipGetLastError());

    HIP_CHECK(hipDeviceSynchronize());
    delete[] counts;
    free(h_data);
    return 0;
}
