// Clean: allocation helpers (a returned buffer, an out-parameter), casts around `&d` in
// allocation calls, and fixed counter slots inside their allocation.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define CHECK(call)                                                           \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

constexpr int kCounters = 4;

template <typename T>
T* deviceAlloc(size_t count) {
    T* ptr = nullptr;
    CHECK(hipMalloc(reinterpret_cast<void**>(&ptr), count * sizeof(T)));
    return ptr;
}

template <typename T>
void allocBuffer(T** out, size_t bytes) {
    CHECK(hipMalloc(out, bytes));
}

__global__ void histogram(const float* values, int* counters, float* scaled, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = values[i];
        scaled[i] = 2.0f * v;
        if (v > 0.0f) atomicAdd(&counters[0], 1);
        else if (v < 0.0f) atomicAdd(&counters[1], 1);
        else atomicAdd(&counters[2], 1);
        atomicAdd(&counters[3], 1);
    }
}

int main() {
    const int n = 1 << 16;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_values(n), h_scaled(n);
    for (int i = 0; i < n; ++i) h_values[i] = static_cast<float>(i % 7) - 3.0f;

    float* d_values = deviceAlloc<float>(n);
    float* d_scaled = nullptr;
    allocBuffer(&d_scaled, bytes);
    int* d_counters = nullptr;
    CHECK(hipMalloc((void **) &d_counters, kCounters * sizeof(int)));
    float* d_spare = nullptr;
    CHECK(hipMallocManaged(static_cast<void**>(static_cast<void*>(&d_spare)), bytes));

    CHECK(hipMemcpy(d_values, h_values.data(), bytes, hipMemcpyHostToDevice));
    CHECK(hipMemset(d_counters, 0, kCounters * sizeof(int)));
    hipLaunchKernelGGL(histogram, (n + 255) / 256, 256, 0, 0, d_values, d_counters, d_scaled, n);
    CHECK(hipGetLastError());

    int h_counters[kCounters];
    CHECK(hipMemcpy(h_counters, d_counters, sizeof(h_counters), hipMemcpyDeviceToHost));
    CHECK(hipMemcpy(h_scaled.data(), d_scaled, bytes, hipMemcpyDeviceToHost));
    printf("positives %d negatives %d zeros %d total %d, scaled[1] = %f\n",
           h_counters[0], h_counters[1], h_counters[2], h_counters[3], h_scaled[1]);

    CHECK(hipFree(d_spare));
    CHECK(hipFree(d_counters));
    CHECK(hipFree(d_scaled));
    CHECK(hipFree(d_values));
    return 0;
}
