// cudalint demo: oversized-allocation (bad). 1e10 x 10 floats is 400 GB, more than any single GPU has.
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
    float* d_matrix = nullptr;
    hipError_t err = hipMalloc(&d_matrix, (size_t)1e10 * 10 * sizeof(float)); // expect: oversized-allocation
    if (err != hipSuccess) {
        fprintf(stderr, "allocation failed: %s\n", hipGetErrorString(err));
        return EXIT_FAILURE;
    }

    const int rows = 1000;
    const int cols = 10;
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    hipLaunchKernelGGL(fillRows, grid, block, 0, 0, d_matrix, rows, cols);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(d_matrix));
    return 0;
}
