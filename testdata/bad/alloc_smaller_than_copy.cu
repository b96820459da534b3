// Bad: copies and memsets that provably write more bytes than the cudaMalloc reserved.
#include <cstdio>
#include <cstdlib>
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

constexpr size_t kChunk = 1024;

__global__ void scaleKernel(float* data, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        data[i] *= 2.0f;
    }
}

static void shortAllocation(const float* h_data, int size) {
    float* d_data = nullptr;
    CUDA_CHECK(cudaMalloc(&d_data, size * sizeof(float) - 1024));
    CUDA_CHECK(cudaMemcpy(d_data, h_data, size * sizeof(float), cudaMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    scaleKernel<<<(size + 255) / 256, 256>>>(d_data, size);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_data));
}

static void oneExtraElement(const std::vector<int>& labels) {
    const size_t count = labels.size() - 1;
    int* d_labels = nullptr;
    CUDA_CHECK(cudaMalloc(&d_labels, count * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_labels, labels.data(), (count + 1) * sizeof(int), cudaMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    CUDA_CHECK(cudaFree(d_labels));
}

static void paddedMemset(int n) {
    float* d_acc = nullptr;
    CUDA_CHECK(cudaMalloc(&d_acc, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_acc, 0, (n + 32) * sizeof(float))); // expect: alloc-smaller-than-copy
    CUDA_CHECK(cudaFree(d_acc));
}

static void asyncDoubleChunk(const float* h_src, cudaStream_t stream) {
    float* d_chunk = nullptr;
    CUDA_CHECK(cudaMalloc(&d_chunk, kChunk * sizeof(float)));
    CUDA_CHECK(cudaMemcpyAsync(d_chunk, h_src, 2 * kChunk * sizeof(float), cudaMemcpyHostToDevice, stream)); // expect: alloc-smaller-than-copy
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaFree(d_chunk));
}

// The cast around `&d_half` hides nothing: half the bytes are reserved, all of them copied.
static void castHalfAllocation(const std::vector<float>& h_values) {
    const size_t bytes = h_values.size() * sizeof(float);
    float* d_half = nullptr;
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_half), bytes / 2));
    CUDA_CHECK(cudaMemcpy(d_half, h_values.data(), bytes, cudaMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    scaleKernel<<<(h_values.size() + 255) / 256, 256>>>(d_half, static_cast<int>(h_values.size() / 2));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_half));
}

template <typename T>
T* deviceAlloc(size_t count) {
    T* ptr = nullptr;
    CUDA_CHECK(cudaMalloc((void**)&ptr, count * sizeof(T)));
    return ptr;
}

// An allocation helper sized in elements, called with one element too few.
static void helperOneShort(const std::vector<float>& h_values) {
    const size_t count = h_values.size();
    float* d_values = deviceAlloc<float>(count - 1);
    CUDA_CHECK(cudaMemcpy(d_values, h_values.data(), count * sizeof(float), cudaMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    CUDA_CHECK(cudaFree(d_values));
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

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    asyncDoubleChunk(h_data.data(), stream);
    CUDA_CHECK(cudaStreamDestroy(stream));
    return 0;
}
