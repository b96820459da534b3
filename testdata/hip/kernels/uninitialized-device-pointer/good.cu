// cudalint demo: uninitialized-device-pointer (good). Every device buffer is allocated before it is used.
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

__global__ void weightedInputs(const float* weights, const float* inputs, float* outputs, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        outputs[i] = weights[i] * inputs[i];
    }
}

int main() {
    const int size = 1000;
    float* h_weights = (float*)malloc(size * sizeof(float));
    float* h_inputs = (float*)malloc(size * sizeof(float));
    float* h_outputs = (float*)malloc(size * sizeof(float));
    for (int i = 0; i < size; ++i) {
        h_weights[i] = 0.5f + static_cast<float>(i % 10) / 10.0f;
        h_inputs[i] = static_cast<float>(rand()) / RAND_MAX + 0.1f;
    }

    float* d_weights;
    float* d_inputs;
    float* d_outputs;
    HIP_CHECK(hipMalloc(&d_weights, size * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_inputs, size * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_outputs, size * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_weights, h_weights, size * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_inputs, h_inputs, size * sizeof(float), hipMemcpyHostToDevice));

    hipLaunchKernelGGL(weightedInputs, (size + 255) / 256, 256, 0, 0, d_weights, d_inputs, d_outputs, size);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_outputs, d_outputs, size * sizeof(float), hipMemcpyDeviceToHost));
    printf("outputs[10] = %f\n", h_outputs[10]);
    HIP_CHECK(hipFree(d_outputs));
    HIP_CHECK(hipFree(d_weights));
    HIP_CHECK(hipFree(d_inputs));
    free(h_weights);
    free(h_inputs);
    free(h_outputs);
    return 0;
}
