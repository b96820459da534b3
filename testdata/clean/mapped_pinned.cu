// Clean: zero-copy mapped pinned memory (cudaHostAlloc + cudaHostGetDevicePointer) and pinned staging buffers.
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

__global__ void threshold(const float* in, unsigned char* mask, float t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        mask[i] = in[i] > t ? 1 : 0;
    }
}

int main() {
    const int n = 1 << 16;

    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));

    float* h_in = nullptr;
    unsigned char* h_mask = nullptr;
    CUDA_CHECK(cudaHostAlloc((void**)&h_in, n * sizeof(float), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostAlloc((void**)&h_mask, n * sizeof(unsigned char), cudaHostAllocMapped));

    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(rand()) / RAND_MAX;
    }

    float* d_in = nullptr;
    unsigned char* d_mask = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer((void**)&d_in, h_in, 0));
    CUDA_CHECK(cudaHostGetDevicePointer((void**)&d_mask, h_mask, 0));

    threshold<<<(n + 255) / 256, 256>>>(d_in, d_mask, 0.5f, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    int above = 0;
    for (int i = 0; i < n; ++i) {
        above += h_mask[i];
    }
    printf("%d of %d values above threshold\n", above, n);

    CUDA_CHECK(cudaFreeHost(h_in));
    CUDA_CHECK(cudaFreeHost(h_mask));
    return 0;
}
