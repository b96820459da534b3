// cudalint demo: truncated-ceil-division (good). The block count rounds up in integers, so the last partial block runs.
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

__global__ void scale(float* values, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        values[i] *= factor;
    }
}

int main() {
    const int n = 1000;
    const int threads = 256;
    float* h_values = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        h_values[i] = 1.0f;
    }

    float* d_values = nullptr;
    HIP_CHECK(hipMalloc(&d_values, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_values, h_values, n * sizeof(float), hipMemcpyHostToDevice));

    int blocks = (n + threads - 1) / threads;
    hipLaunchKernelGGL(scale, blocks, threads, 0, 0, d_values, 2.0f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_values, d_values, n * sizeof(float), hipMemcpyDeviceToHost));
    printf("values[999] = %.1f\n", h_values[n - 1]);

    HIP_CHECK(hipFree(d_values));
    free(h_values);
    return 0;
}
