// cudalint demo: oversized-allocation (bad). 1e10 x 10 floats is 400 GB, more than any single GPU has.
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

__global__ void fillRows(float* matrix, int rows, int cols) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) {
        matrix[(size_t)r * cols + c] = static_cast<float>(r % 7) + 0.001f * c;
    }
}

int main() {
    float* d_matrix = nullptr;
    cudaError_t err = cudaMalloc(&d_matrix, (size_t)1e10 * 10 * sizeof(float)); // expect: oversized-allocation
    if (err != cudaSuccess) {
        fprintf(stderr, "allocation failed: %s\n", cudaGetErrorString(err));
        return EXIT_FAILURE;
    }

    const int rows = 1000;
    const int cols = 10;
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    fillRows<<<grid, block>>>(d_matrix, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_matrix));
    return 0;
}
