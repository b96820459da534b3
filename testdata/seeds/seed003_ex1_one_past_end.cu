// Seed 003_db7eef7316ff9f01.txt, example 1: CUDA analog of x.view(x.numel() + 1): writing one element past the end of the buffer.
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

static float* corruptMemory(int rows, int cols) {
    const size_t numel = (size_t)rows * cols;
    std::vector<float> h_x(numel + 1);
    for (size_t i = 0; i < h_x.size(); ++i) {
        h_x[i] = static_cast<float>(rand()) / RAND_MAX;
    }

    float* d_x = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, numel * sizeof(float)));
    // Intentionally write outside of allocated memory: the "view" has numel + 1 elements
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), (numel + 1) * sizeof(float), cudaMemcpyHostToDevice)); // expect: alloc-smaller-than-copy
    return d_x;
}

static float performOperation(const float* d_x, int rows, int cols) {
    const size_t bBytes = (size_t)cols * cols * sizeof(float);
    const size_t cBytes = (size_t)rows * cols * sizeof(float);
    std::vector<float> h_b((size_t)cols * cols);
    for (size_t i = 0; i < h_b.size(); ++i) {
        h_b[i] = static_cast<float>(rand()) / RAND_MAX;
    }

    float* d_b = nullptr;
    float* d_c = nullptr;
    CUDA_CHECK(cudaMalloc(&d_b, bBytes));
    CUDA_CHECK(cudaMalloc(&d_c, cBytes));
    CUDA_CHECK(cudaMemcpy(d_b, h_b.data(), bBytes, cudaMemcpyHostToDevice));

    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    matmul<<<grid, block>>>(d_x, d_b, d_c, rows, cols, cols);
    CUDA_CHECK(cudaGetLastError());

    std::vector<float> h_c((size_t)rows * cols);
    CUDA_CHECK(cudaMemcpy(h_c.data(), d_c, cBytes, cudaMemcpyDeviceToHost));
    double sum = 0.0;
    for (float v : h_c) {
        sum += v;
    }

    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
    return static_cast<float>(sum);
}

int main() {
    const int rows = 1000;
    const int cols = 1000;
    float* d_x = corruptMemory(rows, cols);
    float z = performOperation(d_x, rows, cols);
    printf("Success: %f\n", z);
    CUDA_CHECK(cudaFree(d_x));
    return 0;
}
