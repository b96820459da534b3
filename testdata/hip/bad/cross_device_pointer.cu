// Bad: a buffer allocated on device 0 is passed to a kernel launched on device 1 without peer access.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

__global__ void saxpy(const float* x, const float* y, float* out, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a * x[i] + y[i];
    }
}

int main() {
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_x(n), h_y(n), h_out(n);
    for (int i = 0; i < n; ++i) {
        h_x[i] = static_cast<float>(rand()) / RAND_MAX;
        h_y[i] = static_cast<float>(i % 17);
    }

    float* d_x = nullptr;
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipMalloc(&d_x, bytes));
    HIP_CHECK(hipMemcpy(d_x, h_x.data(), bytes, hipMemcpyHostToDevice));

    float* d_y = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipSetDevice(1));
    HIP_CHECK(hipMalloc(&d_y, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpy(d_y, h_y.data(), bytes, hipMemcpyHostToDevice));

    hipLaunchKernelGGL(saxpy, (n + 255) / 256, 256, 0, 0, d_x, d_y, d_out, 2.0f, n); // expect: cross-device-pointer
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, bytes, hipMemcpyDeviceToHost));
    printf("out[1] = %f\n", h_out[1]);

    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipFree(d_x));
    return 0;
}
