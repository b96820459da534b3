// Seed 001_203a1200665b5c4d.txt, example 1: CUDA analog of the 10x10 loop that runs range(11) (off-by-one bound).
#include <cstdio>
#include <cstdlib>
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

// y = x * 2 over a rows x cols matrix stored as n = rows * cols floats.
__global__ void doubleElements(const float* x, float* y, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    // Off-by-one: should be idx < n (the Python loop used range(11) on 10 rows)
    if (idx <= n) {
        float v = x[idx]; // expect: out-of-range-access
        y[idx] = v * 2.0f; // expect: out-of-range-access
    }
}

int main() {
    const int rows = 10;
    const int cols = 10;
    const int n = rows * cols;
    const size_t bytes = n * sizeof(float);

    float h_x[rows * cols];
    float h_y[rows * cols];
    for (int i = 0; i < n; ++i) {
        h_x[i] = static_cast<float>(rand()) / RAND_MAX - 0.5f;
    }

    float* d_x = nullptr;
    float* d_y = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, bytes));
    CUDA_CHECK(cudaMalloc(&d_y, bytes));
    CUDA_CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));

    // 128 threads for 100 elements: thread 100 passes the faulty guard.
    doubleElements<<<1, 128>>>(d_x, d_y, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r) {
        printf("%8.3f %8.3f ... %8.3f\n", h_y[r * cols], h_y[r * cols + 1], h_y[r * cols + cols - 1]);
    }

    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    return 0;
}
