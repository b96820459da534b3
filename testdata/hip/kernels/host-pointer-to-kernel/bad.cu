// cudalint demo: host-pointer-to-kernel (bad). A malloc'd host array is handed straight to the kernel.
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

    scale<<<(n + 255) / 256, 256>>>(h_data, 3.0f, n); // expect: host-pointer-to-kernel
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    printf("data[0] = %f\n", h_data[0]);
    free(h_data);
    return 0;
}
