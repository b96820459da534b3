// Bad: CUDA runtime calls whose cudaError_t result is silently discarded, next to correctly handled ones.
// One finding per function, on its first unchecked call; the others are its labels.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

__global__ void axpb(float* y, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * y[i] + b;
    }
}

static cudaError_t resetBuffer(float* d, int n) {
    return cudaMemset(d, 0, n * sizeof(float));
}

// Outside the end of main, a discarded cudaFree is still reported.
static void release(float* d) {
    cudaFree(d); // expect: unchecked-cuda-call
}

int main() {
    const int n = 100000;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(rand()) / RAND_MAX;

    cudaSetDevice(0); // expect: unchecked-cuda-call

    float* d_y = nullptr;
    float* d_tmp = nullptr;
    cudaMalloc(&d_y, bytes); // expect-label: unchecked-cuda-call
    cudaError_t err = cudaMalloc(&d_tmp, bytes);
    if (err != cudaSuccess) {
        fprintf(stderr, "cudaMalloc d_tmp: %s\n", cudaGetErrorString(err));
        cudaFree(d_y);
        return EXIT_FAILURE;
    }

    cudaMemcpy(d_y, h.data(), bytes, cudaMemcpyHostToDevice); // expect-label: unchecked-cuda-call
    if (cudaMemset(d_tmp, 0, bytes) != cudaSuccess) {
        fprintf(stderr, "memset failed\n");
        return EXIT_FAILURE;
    }

    cudaStream_t stream;
    cudaStreamCreate(&stream); // expect-label: unchecked-cuda-call

    axpb<<<(n + 255) / 256, 256, 0, stream>>>(d_y, 2.0f, 1.0f, n);
    CUDA_CHECK(cudaGetLastError());

    cudaMemcpyAsync(d_tmp, d_y, bytes, cudaMemcpyDeviceToDevice, stream); // expect-label: unchecked-cuda-call
    cudaStreamSynchronize(stream); // expect-label: unchecked-cuda-call
    cudaDeviceSynchronize(); // expect-label: unchecked-cuda-call

    // A bare cudaGetLastError() deliberately clears the error state: not reported.
    cudaGetLastError();

    CUDA_CHECK(resetBuffer(d_tmp, n));
    cudaMemcpy(h.data(), d_y, bytes, cudaMemcpyDeviceToHost); // expect-label: unchecked-cuda-call
    printf("y[0] = %f\n", h[0]);

    CUDA_CHECK(cudaStreamDestroy(stream));
    cudaFree(d_tmp); // teardown at the end of main: reported only with strict-error-checks
    (void)cudaFree(d_y);
    return 0;
}
