// cudalint demo: double-free (good). Each device buffer is freed exactly once.
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

__global__ void histogram(const int* values, int* bins, int n, int numBins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[values[i] % numBins], 1);
    }
}

int main() {
    const int n = 1000;
    const int numBins = 16;
    int* h_values = (int*)malloc(n * sizeof(int));
    int* h_bins = (int*)malloc(numBins * sizeof(int));
    for (int i = 0; i < n; ++i) {
        h_values[i] = rand() % 1000;
    }

    int* d_values = nullptr;
    int* d_bins = nullptr;
    HIP_CHECK(hipMalloc(&d_values, n * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_bins, numBins * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_values, h_values, n * sizeof(int), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_bins, 0, numBins * sizeof(int)));

    hipLaunchKernelGGL(histogram, (n + 255) / 256, 256, 0, 0, d_values, d_bins, n, numBins);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_bins, d_bins, numBins * sizeof(int), hipMemcpyDeviceToHost));
    for (int b = 0; b < numBins; ++b) {
        printf("bin %2d: %d\n", b, h_bins[b]);
    }

    HIP_CHECK(hipFree(d_values));
    HIP_CHECK(hipFree(d_bins));
    free(h_values);
    free(h_bins);
    return 0;
}
