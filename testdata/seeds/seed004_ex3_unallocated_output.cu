// Seed 004_7845cfe83ac707c5.txt, example 3: d_outputs is never allocated before it is passed to the kernel.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void finalKernel(float* weights, float* inputs, float* outputs, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        outputs[i] = weights[i] * inputs[i];
    }
}

int main() {
    int size = 1 << 16;
    float* h_weights, *h_inputs, *h_outputs;
    float* d_weights, *d_inputs, *d_outputs;

    // allocate memory for h_weights, h_inputs, h_outputs on the host
    h_weights = (float*)malloc(size * sizeof(float));
    h_inputs = (float*)malloc(size * sizeof(float));
    h_outputs = (float*)malloc(size * sizeof(float));
    // and for d_weights, d_inputs on the device (d_outputs is forgotten)
    cudaMalloc((void**)&d_weights, size * sizeof(float)); // expect: unchecked-cuda-call
    cudaMalloc((void**)&d_inputs, size * sizeof(float)); // expect-label: unchecked-cuda-call

    // populate h_weights, h_inputs
    for (int i = 0; i < size; ++i) {
        h_weights[i] = 0.01f * static_cast<float>(i % 100);
        h_inputs[i] = static_cast<float>(rand() % 1000) / 1000.0f;
    }
    cudaMemcpy(d_weights, h_weights, size * sizeof(float), cudaMemcpyHostToDevice); // expect-label: unchecked-cuda-call
    cudaMemcpy(d_inputs, h_inputs, size * sizeof(float), cudaMemcpyHostToDevice); // expect-label: unchecked-cuda-call

    //Passing uninitialized pointer
    finalKernel<<<(size + 255) / 256, 256>>>(d_weights, d_inputs, d_outputs, size); // expect: uninitialized-device-pointer, unchecked-kernel-launch

    // free memory
    cudaFree(d_weights); // teardown at the end of main
    cudaFree(d_inputs); // teardown at the end of main
    free(h_weights);
    free(h_inputs);
    free(h_outputs);
    return 0;
}
