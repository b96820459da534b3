// Seed 003_db7eef7316ff9f01.txt, example 2: CUDA analog of torch.randn((int(1e10), 10)) on the GPU (400 GB allocation).
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

__global__ void matmul(const float* a, const float* b, float* c, int m, int k, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int i = 0; i < k; ++i) {
            acc += a[row * k + i] * b[i * n + col];
        }
        c[row * n + col] = acc;
    }
}

static void allocateTooMuch() {
    float* d_x = nullptr;
    cudaError_t err = cudaMalloc(&d_x, (size_t)1e10 * 10 * sizeof(float)); // expect: oversized-allocation
    if (err != cudaSuccess) {
        printf("Error caught during tensor creation: %s\n", cudaGetErrorString(err));
        cudaGetLastError();
        return;
    }
    CUDA_CHECK(cudaFree(d_x));
}

static bool test(double* result) {
    const int size = 1000;
    const size_t bytes = (size_t)size * size * sizeof(float);
    std::vector<float> h_a((size_t)size * size), h_b((size_t)size * size), h_c((size_t)size * size);
    for (size_t i = 0; i < h_a.size(); ++i) {
        h_a[i] = static_cast<float>(rand()) / RAND_MAX;
        h_b[i] = static_cast<float>(rand()) / RAND_MAX;
    }

    float* d_a = nullptr;
    float* d_b = nullptr;
    float* d_c = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&d_c, bytes));
    CUDA_CHECK(cudaMemcpy(d_a, h_a.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bytes, cudaMemcpyHostToDevice));

    dim3 block(16, 16);
    dim3 grid((size + 15) / 16, (size + 15) / 16);
    matmul<<<grid, block>>>(d_a, d_b, d_c, size, size, size);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_c.data(), d_c, bytes, cudaMemcpyDeviceToHost));

    double sum = 0.0;
    for (float v : h_c) {
        sum += v;
    }
    *result = sum;

    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
    return true;
}

int main() {
    allocateTooMuch();
    double z = 0.0;
    if (test(&z)) {
        printf("success: %f\n", z);
    }
    return 0;
}
