// cudalint demo: thread-index-overflow (good). The index is computed in 64 bits.
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

__global__ void scale(float* x, float a, size_t n) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= a;
    }
}

int main() {
    // small enough to run anywhere; the index wraps only past 2^31 elements
    const size_t n = 1 << 20;
    float* h_x = (float*)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) {
        h_x[i] = 1.0f;
    }
    float* d_x = nullptr;
    HIP_CHECK(hipMalloc(&d_x, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_x, h_x, n * sizeof(float), hipMemcpyHostToDevice));
    scale<<<(unsigned)((n + 255) / 256), 256>>>(d_x, 2.0f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_x, d_x, n * sizeof(float), hipMemcpyDeviceToHost));
    printf("x[n - 1] = %f\n", h_x[n - 1]);
    HIP_CHECK(hipFree(d_x));
    free(h_x);
    return 0;
}
