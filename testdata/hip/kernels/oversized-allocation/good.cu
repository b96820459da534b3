// cudalint demo: oversized-allocation (good). Only the rows that are processed are allocated (1000 x 10 floats).
#include <cstdio>
#include <cstdlib>
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
    hipError_t err = hipMalloc(&d_matrix, (size_t)rows * cols * sizeof(float));
    if (err != hipSuccess) {
        fprintf(stderr, "allocation failed: %s\n", hipGetErrorString(err));
        return EXIT_FAILURE;
    }

    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    hipLaunchKernelGGL(fillRows, grid, block, 0, 0, d_matrix, rows, cols);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    float h_first[cols];
    HIP_CHECK(hipMemcpy(h_first, d_matrix, cols * sizeof(float), hipMemcpyDeviceToHost));
    printf("row 0: %f ... %f\n", h_first[0], h_first[cols - 1]);

    HIP_CHECK(hipFree(d_matrix));
    return 0;
}
