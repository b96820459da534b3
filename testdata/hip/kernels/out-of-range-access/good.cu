// cudalint demo: out-of-range-access (good). Only in-range threads touch memory.
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

// Out-of-range threads simply do nothing.
__global__ void doubleValues(const float* input, float* output, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        output[i] = input[i] * 2.0f;
    }
}

int main() {
    const int size = 1000;
    const int threads = 256;
    const int blocks = (size + threads - 1) / threads;
    const size_t bytes = size * sizeof(float);

    float* h_input = (float*)malloc(bytes);
    float* h_output = (float*)malloc(bytes);
    for (int i = 0; i < size; ++i) {
        h_input[i] = static_cast<float>(rand() % 2000 - 1000) / 10.0f;
    }

    float* d_input = nullptr;
    float* d_output = nullptr;
    HIP_CHECK(hipMalloc(&d_input, bytes));
    HIP_CHECK(hipMalloc(&d_output, bytes));
    HIP_CHECK(hipMemcpy(d_input, h_input, bytes, hipMemcpyHostToDevice));

    hipLaunchKernelGGL(doubleValues, blocks, threads, 0, 0, d_input, d_output, size);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_output, d_output, bytes, hipMemcpyDeviceToHost));
    printf("output[0] = %f (input %f)\n", h_output[0], h_input[0]);

    HIP_CHECK(hipFree(d_input));
    HIP_CHECK(hipFree(d_output));
    free(h_input);
    free(h_output);
    return 0;
}
