// cudalint demo: host-pointer-to-kernel (good). The data is copied to a device buffer and the kernel gets the device pointer.
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

__global__ void scale(float* data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] *= factor;
    }
}

int main() {
    const int n = 1000;
    float* h_data = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) {
        h_data[i] = static_cast<float>(rand() % 1000) / 10.0f + 1.0f;
    }

    float* d_data = nullptr;
    HIP_CHECK(hipMalloc(&d_data, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_data, h_data, n * sizeof(float), hipMemcpyHostToDevice));

    scale<<<(n + 255) / 256, 256>>>(d_data, 3.0f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_data, d_data, n * sizeof(float), hipMemcpyDeviceToHost));
    printf("data[0] = %f\n", h_data[0]);
    HIP_CHECK(hipFree(d_data));
    free(h_data);
    return 0;
}
