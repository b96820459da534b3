// Seed 004_7845cfe83ac707c5.txt, example 2: only half of the input is copied before the kernel reads all of it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void anotherKernel(float* input, float* output, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        output[i] = input[i] * 2.0f;
    }
}

int main() {
    float* h_data;
    float* d_data;
    float* d_output;
    int size = 1024 * 1024;

    // allocate memory as before
    h_data = (float*)malloc(size * sizeof(float));
    cudaMalloc((void**)&d_data, size * sizeof(float)); // expect: unchecked-cuda-call
    cudaMalloc((void**)&d_output, size * sizeof(float)); // expect-label: unchecked-cuda-call

    // populate h_data
    for (int i = 0; i < size; ++i) {
        h_data[i] = static_cast<float>(i % 97) * 0.5f;
    }

    //Only copy half the data!
    cudaMemcpy(d_data, h_data, size/2 * sizeof(float), cudaMemcpyHostToDevice); // expect-label: unchecked-cuda-call

    //Launch kernel
    anotherKernel<<<(size + 255) / 256, 256>>>(d_data, d_output, size); // expect: uninitialized-device-read, unchecked-kernel-launch

    // error handling omitted for brevity

    // free memory
    cudaFree(d_data); // teardown at the end of main
    cudaFree(d_output); // teardown at the end of main
    free(h_data);
    return 0;
}
