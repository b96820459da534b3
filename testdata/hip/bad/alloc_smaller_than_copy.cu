// Bad: copies and memsets that provably write more bytes than the hipMalloc reserved.
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

constexpr size_t kChunk = 1024;

__global__ void scaleKernel(float* data, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        data[i] *= 2.0f;
    }
}

static void shortAllocation(const float* h_data, int size) {
    float* d_data = nullptr;
    HIP_CHECK(hipMalloc(&d_data, size * sizeof(float) - 1024));
    HIP_CHECK(hipMemcpy(d_data, h_data, size * sizeof(float), hipMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    hipLaunchKernelGGL(scaleKernel, (size + 255) / 256, 256, 0, 0, d_data, size);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_data));
}

static void oneExtraElement(const std::vector<int>& labels) {
    const size_t count = labels.size() - 1;
    int* d_labels = nullptr;
    HIP_CHECK(hipMalloc(&d_labels, count * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_labels, labels.data(), (count + 1) * sizeof(int), hipMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    HIP_CHECK(hipFree(d_labels));
}

static void paddedMemset(int n) {
    float* d_acc = nullptr;
    HIP_CHECK(hipMalloc(&d_acc, n * sizeof(float)));
    HIP_CHECK(hipMemset(d_acc, 0, (n + 32) * sizeof(float))); // expect: alloc-smaller-than-copy
    HIP_CHECK(hipFree(d_acc));
}

static void asyncDoubleChunk(const float* h_src, hipStream_t stream) {
    float* d_chunk = nullptr;
    HIP_CHECK(hipMalloc(&d_chunk, kChunk * sizeof(float)));
    HIP_CHECK(hipMemcpyAsync(d_chunk, h_src, 2 * kChunk * sizeof(float), hipMemcpyHostToDevice, stream)); // expect: alloc-smaller-than-copy
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipFree(d_chunk));
}

// The cast around `&d_half` hides nothing: half the bytes are reserved, all of them copied.
static void castHalfAllocation(const std::vector<float>& h_values) {
    const size_t bytes = h_values.size() * sizeof(float);
    float* d_half = nullptr;
    HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&d_half), bytes / 2));
    HIP_CHECK(hipMemcpy(d_half, h_values.data(), bytes, hipMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    hipLaunchKernelGGL(scaleKernel, (h_values.size() + 255) / 256, 256, 0, 0, d_half, static_cast<int>(h_values.size() / 2));
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_half));
}

template <typename T>
T* deviceAlloc(size_t count) {
    T* ptr = nullptr;
    HIP_CHECK(hipMalloc((void**)&ptr, count * sizeof(T)));
    return ptr;
}

// An allocation helper sized in elements, called with one element too few.
static void helperOneShort(const std::vector<float>& h_values) {
    const size_t count = h_values.size();
    float* d_values = deviceAlloc<float>(count - 1);
    HIP_CHECK(hipMemcpy(d_values, h_values.data(), count * sizeof(float), hipMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    HIP_CHECK(hipFree(d_values));
}

int main() {
    const int size = 1 << 16;
    std::vector<float> h_data(size);
    std::vector<int> labels(5001);
    for (int i = 0; i < size; ++i) h_data[i] = static_cast<float>(rand()) / RAND_MAX;
    for (size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<int>(i % 10);

    shortAllocation(h_data.data(), size);
    oneExtraElement(labels);
    paddedMemset(size);
    castHalfAllocation(h_data);
    helperOneShort(h_data);

    hipStream_t stream;
    HIP_CHECK(hipStreamCreate(&stream));
    asyncDoubleChunk(h_data.data(), stream);
    HIP_CHECK(hipStreamDestroy(stream));
    return 0;
}
