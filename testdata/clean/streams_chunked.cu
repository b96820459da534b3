// Clean: chunked asynchronous copies on several streams with pointer offsets (d + offset), pinned host memory, events.
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

__global__ void polynomial(const float* x, float* y, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        float v = x[i];
        y[i] = ((0.5f * v + 1.5f) * v - 2.0f) * v + 3.0f;
    }
}

int main() {
    const int kStreams = 4;
    const int n = 1 << 22;
    const int chunk = n / kStreams;
    const size_t bytes = n * sizeof(float);
    const size_t chunkBytes = chunk * sizeof(float);

    float* h_x = nullptr;
    float* h_y = nullptr;
    CUDA_CHECK(cudaMallocHost(&h_x, bytes));
    CUDA_CHECK(cudaMallocHost(&h_y, bytes));
    for (int i = 0; i < n; ++i) {
        h_x[i] = static_cast<float>((i * 17) % 1024) / 512.0f - 1.0f;
    }

    float* d_x = nullptr;
    float* d_y = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, bytes));
    CUDA_CHECK(cudaMalloc(&d_y, bytes));

    cudaStream_t streams[kStreams];
    for (int s = 0; s < kStreams; ++s) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking));
    }
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start));

    for (int s = 0; s < kStreams; ++s) {
        const size_t offset = (size_t)s * chunk;
        CUDA_CHECK(cudaMemcpyAsync(d_x + offset, h_x + offset, chunkBytes, cudaMemcpyHostToDevice, streams[s]));
        polynomial<<<(chunk + 255) / 256, 256, 0, streams[s]>>>(d_x + offset, d_y + offset, chunk);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpyAsync(h_y + offset, d_y + offset, chunkBytes, cudaMemcpyDeviceToHost, streams[s]));
    }

    CUDA_CHECK(cudaEventRecord(stop));
    for (int s = 0; s < kStreams; ++s) {
        CUDA_CHECK(cudaStreamSynchronize(streams[s]));
    }
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("pipeline took %.3f ms, y[123] = %f\n", ms, h_y[123]);

    for (int s = 0; s < kStreams; ++s) {
        CUDA_CHECK(cudaStreamDestroy(streams[s]));
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFreeHost(h_x));
    CUDA_CHECK(cudaFreeHost(h_y));
    return 0;
}
