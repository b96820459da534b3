// Seed 004_7845cfe83ac707c5.txt, example 1: cudaMalloc allocates less than the cudaMemcpy copies.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void myKernel(float* data, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size) {
        data[i] *= 2.0f; //Access outside allocated memory if size is wrong.
    }
}

int main() {
    float* h_data; //Host data.
    float* d_data; //Device data.
    int size = 1024 * 1024; // Example size

    h_data = (float*)malloc(size * sizeof(float));
    for (int i = 0; i < size; ++i) {
        h_data[i] = static_cast<float>(rand()) / RAND_MAX;
    }

    //Allocate less than needed!
    cudaMalloc((void**)&d_data, size * sizeof(float) - 1024); // expect: unchecked-cuda-call
    cudaMemcpy(d_data, h_data, size * sizeof(float), cudaMemcpyHostToDevice); // expect: alloc-smaller-than-copy // expect-label: unchecked-cuda-call

    //Launch kernel
    myKernel<<<(size + 255) / 256, 256>>>(d_data, size); // expect: unchecked-kernel-launch

    // error handling omitted for brevity

    cudaFree(d_data); // teardown at the end of main
    free(h_data);
    return 0;
}
