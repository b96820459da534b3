// cudalint demo: uninitialized-device-read (good). The whole input is copied before the kernel reads it.
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

__global__ void twice(const float* input, float* output, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        output[i] = input[i] * 2.0f;
    }
}

int main() {
    const int size = 1000;
    float* h_input = (float*)malloc(size * sizeof(float));
    float* h_output = (float*)malloc(size * sizeof(float));
    for (int i = 0; i < size; ++i) {
        h_input[i] = static_cast<float>((i * 37) % 101) + 0.25f;
    }

    float* d_input = nullptr;
    float* d_output = nullptr;
    HIP_CHECK(hipMalloc(&d_input, size * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_output, size * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_input, h_input, size * sizeof(float), hipMemcpyHostToDevice));

    hipLaunchKernelGGL(twice, (size + 255) / 256, 256, 0, 0, d_input, d_output, size);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_output, d_output, size * sizeof(float), hipMemcpyDeviceToHost));
    printf("output[%d] = %f (reference %f)\n", size - 1, h_output[size - 1], 2.0f * h_input[size - 1]);

    HIP_CHECK(hipFree(d_input));
    HIP_CHECK(hipFree(d_output));
    free(h_input);
    free(h_output);
    return 0;
}
