// cudalint demo: device-memory-leak (bad). A fresh device buffer is allocated for every batch and never freed.
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

__global__ void normalizeBatch(const float* in, float* out, float scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * scale;
    }
}

int main() {
    const int n = 1000;
    const int numBatches = 1000;
    float* h_batch = (float*)malloc(n * sizeof(float));
    float* h_result = (float*)malloc(n * sizeof(float));

    size_t freeBefore = 0, totalBytes = 0;
    HIP_CHECK(hipMemGetInfo(&freeBefore, &totalBytes));

    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));

    for (int b = 0; b < numBatches; ++b) {
        for (int i = 0; i < n; ++i) {
            h_batch[i] = static_cast<float>((b * 31 + i * 7) % 997) + 1.0f;
        }
        float* d_batch = nullptr;
        HIP_CHECK(hipMalloc(&d_batch, n * sizeof(float))); // expect: device-memory-leak
        HIP_CHECK(hipMemcpy(d_batch, h_batch, n * sizeof(float), hipMemcpyHostToDevice));
        normalizeBatch<<<(n + 255) / 256, 256>>>(d_batch, d_out, 1.0f / 997.0f, n);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipMemcpy(h_result, d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    }

    size_t freeAfter = 0;
    HIP_CHECK(hipMemGetInfo(&freeAfter, &totalBytes));
    printf("last result[0] = %f, device memory in use grew by %zu KiB\n", h_result[0],
           freeBefore > freeAfter ? (freeBefore - freeAfter) >> 10 : (size_t)0);

    HIP_CHECK(hipFree(d_out));
    free(h_batch);
    free(h_result);
    return 0;
}
