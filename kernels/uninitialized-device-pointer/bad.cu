// cudalint demo: uninitialized-device-pointer (bad). d_outputs is declared but never cudaMalloc'd before the launch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
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
    CUDA_CHECK(cudaMalloc(&d_weights, size * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_inputs, size * sizeof(float)));
    // d_outputs is never allocated
    CUDA_CHECK(cudaMemcpy(d_weights, h_weights, size * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_inputs, h_inputs, size * sizeof(float), cudaMemcpyHostToDevice));

    weightedInputs<<<(size + 255) / 256, 256>>>(d_weights, d_inputs, d_outputs, size); // expect: uninitialized-device-pointer
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_weights));
    CUDA_CHECK(cudaFree(d_inputs));
    free(h_weights);
    free(h_inputs);
    free(h_outputs);
    return 0;
}
