// Bad: kernels launched on device buffers that were never (fully) written before being read.
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

__global__ void doubleIt(const float* input, float* output, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        output[i] = input[i] * 2.0f;
    }
}

__global__ void addInto(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

__global__ void accumulate(float* acc, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        acc[i] += x[i];
    }
}

static void halfCopy(const float* h_data, int size) {
    float *d_data = nullptr, *d_output = nullptr;
    CUDA_CHECK(cudaMalloc(&d_data, size * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_output, size * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_data, h_data, size / 2 * sizeof(float), cudaMemcpyHostToDevice));
    doubleIt<<<(size + 255) / 256, 256>>>(d_data, d_output, size); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_data));
    CUDA_CHECK(cudaFree(d_output));
}

static void neverCopied(int n) {
    float *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    doubleIt<<<(n + 127) / 128, 128>>>(d_in, d_out, n); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
}

static void copiedWrongBuffer(const float* h_a, const float* h_b, int n) {
    const size_t bytes = n * sizeof(float);
    float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_a, h_b, bytes, cudaMemcpyHostToDevice));
    addInto<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
}

static void partialMemset(const float* h_x, int n) {
    float *d_acc = nullptr, *d_x = nullptr;
    CUDA_CHECK(cudaMalloc(&d_acc, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_acc, 0, n / 2 * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice));
    accumulate<<<(n + 255) / 256, 256>>>(d_acc, d_x, n); // expect: uninitialized-device-read
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_acc));
    CUDA_CHECK(cudaFree(d_x));
}

int main() {
    const int n = 1 << 14;
    std::vector<float> h_a(n), h_b(n);
    for (int i = 0; i < n; ++i) {
        h_a[i] = static_cast<float>(i % 9);
        h_b[i] = static_cast<float>(rand()) / RAND_MAX;
    }
    halfCopy(h_a.data(), n);
    neverCopied(n);
    copiedWrongBuffer(h_a.data(), h_b.data(), n);
    partialMemset(h_b.data(), n);
    CUDA_CHECK(cudaDeviceSynchronize());
    return 0;
}
