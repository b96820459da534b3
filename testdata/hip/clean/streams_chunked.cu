// Clean: chunked asynchronous copies on several streams with pointer offsets (d + offset), pinned host memory, events.
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
    HIP_CHECK(hipHostMalloc(&h_x, bytes));
    HIP_CHECK(hipHostMalloc(&h_y, bytes));
    for (int i = 0; i < n; ++i) {
        h_x[i] = static_cast<float>((i * 17) % 1024) / 512.0f - 1.0f;
    }

    float* d_x = nullptr;
    float* d_y = nullptr;
    HIP_CHECK(hipMalloc(&d_x, bytes));
    HIP_CHECK(hipMalloc(&d_y, bytes));

    hipStream_t streams[kStreams];
    for (int s = 0; s < kStreams; ++s) {
        HIP_CHECK(hipStreamCreateWithFlags(&streams[s], hipStreamNonBlocking));
    }
    hipEvent_t start, stop;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));
    HIP_CHECK(hipEventRecord(start));

    for (int s = 0; s < kStreams; ++s) {
        const size_t offset = (size_t)s * chunk;
        HIP_CHECK(hipMemcpyAsync(d_x + offset, h_x + offset, chunkBytes, hipMemcpyHostToDevice, streams[s]));
        polynomial<<<(chunk + 255) / 256, 256, 0, streams[s]>>>(d_x + offset, d_y + offset, chunk);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpyAsync(h_y + offset, d_y + offset, chunkBytes, hipMemcpyDeviceToHost, streams[s]));
    }

    HIP_CHECK(hipEventRecord(stop));
    for (int s = 0; s < kStreams; ++s) {
        HIP_CHECK(hipStreamSynchronize(streams[s]));
    }
    HIP_CHECK(hipEventSynchronize(stop));
    float ms = 0.0f;
    HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
    printf("pipeline took %.3f ms, y[123] = %f\n", ms, h_y[123]);

    for (int s = 0; s < kStreams; ++s) {
        HIP_CHECK(hipStreamDestroy(streams[s]));
    }
    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipHostFree(h_x));
    HIP_CHECK(hipHostFree(h_y));
    return 0;
}
