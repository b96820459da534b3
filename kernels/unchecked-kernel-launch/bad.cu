// cudalint demo: unchecked-kernel-launch (bad). With the default block size of 2048 the launch fails, but nothing asks cudaGetLastError(), so the stale data is printed as the result.
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

__global__ void offsetValues(float* data, float offset, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += offset;
    }
}

int main(int argc, char** argv) {
    const int n = 1000;
    const int threads = (argc > 1) ? atoi(argv[1]) : 2048;
    const size_t bytes = n * sizeof(float);
    float* h_data = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        h_data[i] = static_cast<float>(rand() % 1000) / 8.0f;
    }

    float* d_data = nullptr;
    CUDA_CHECK(cudaMalloc(&d_data, bytes));
    CUDA_CHECK(cudaMemcpy(d_data, h_data, bytes, cudaMemcpyHostToDevice));

    offsetValues<<<(n + threads - 1) / threads, threads>>>(d_data, 10.0f, n); // expect: unchecked-kernel-launch
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(h_data, d_data, bytes, cudaMemcpyDeviceToHost));
    printf("data[0] = %f (threads per block: %d)\n", h_data[0], threads);

    CUDA_CHECK(cudaFree(d_data));
    free(h_data);
    return 0;
}
