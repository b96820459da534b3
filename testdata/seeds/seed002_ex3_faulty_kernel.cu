// Seed 002_197ac18f8a0bc17f.txt, example 3: faulty_kernel writes output[i] exactly when i is out of range.
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

__global__ void faulty_kernel(float* input, float* output, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // Incorrect indexing: accessing memory outside the allocated range
    if (i >= size || i < 0) {
        output[i] = 0; // expect: out-of-range-access
    } else {
        output[i] = input[i] * 2.0f;
    }
}

int main() {
    const int size = 1000;
    const int threads = 256;
    const int blocks = (size + threads - 1) / threads;
    const size_t bytes = size * sizeof(float);

    std::vector<float> h_input(size), h_output(size);
    for (int i = 0; i < size; ++i) {
        h_input[i] = static_cast<float>((i * 37) % 101) - 50.0f;
    }

    float* d_input = nullptr;
    float* d_output = nullptr;
    CUDA_CHECK(cudaMalloc(&d_input, bytes));
    CUDA_CHECK(cudaMalloc(&d_output, bytes));
    CUDA_CHECK(cudaMemcpy(d_input, h_input.data(), bytes, cudaMemcpyHostToDevice));

    faulty_kernel<<<blocks, threads>>>(d_input, d_output, size);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_output.data(), d_output, bytes, cudaMemcpyDeviceToHost));
    printf("output[0] = %f, output[%d] = %f\n", h_output[0], size - 1, h_output[size - 1]);

    CUDA_CHECK(cudaFree(d_input));
    CUDA_CHECK(cudaFree(d_output));
    return 0;
}
