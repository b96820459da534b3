// cudalint demo: oversized-allocation (good). Only the rows that are processed are allocated (1000 x 10 floats).
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
    const int rows = 1000;
    const int cols = 10;
    float* d_matrix = nullptr;
    cudaError_t err = cudaMalloc(&d_matrix, (size_t)rows * cols * sizeof(float));
    if (err != cudaSuccess) {
        fprintf(stderr, "allocation failed: %s\n", cudaGetErrorString(err));
        return EXIT_FAILURE;
    }

    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    fillRows<<<grid, block>>>(d_matrix, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    float h_first[cols];
    CUDA_CHECK(cudaMemcpy(h_first, d_matrix, cols * sizeof(float), cudaMemcpyDeviceToHost));
    printf("row 0: %f ... %f\n", h_first[0], h_first[cols - 1]);

    CUDA_CHECK(cudaFree(d_matrix));
    return 0;
}
