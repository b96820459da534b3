// Clean: zero-copy mapped pinned memory (hipHostMalloc + hipHostGetDevicePointer) and pinned staging buffers.
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

__global__ void threshold(const float* in, unsigned char* mask, float t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        mask[i] = in[i] > t ? 1 : 0;
    }
}

int main() {
    const int n = 1 << 16;

    HIP_CHECK(hipSetDeviceFlags(hipDeviceMapHost));

    float* h_in = nullptr;
    unsigned char* h_mask = nullptr;
    HIP_CHECK(hipHostMalloc((void**)&h_in, n * sizeof(float), hipHostMallocMapped));
    HIP_CHECK(hipHostMalloc((void**)&h_mask, n * sizeof(unsigned char), hipHostMallocMapped));

    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(rand()) / RAND_MAX;
    }

    float* d_in = nullptr;
    unsigned char* d_mask = nullptr;
    HIP_CHECK(hipHostGetDevicePointer((void**)&d_in, h_in, 0));
    HIP_CHECK(hipHostGetDevicePointer((void**)&d_mask, h_mask, 0));

    threshold<<<(n + 255) / 256, 256>>>(d_in, d_mask, 0.5f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int above = 0;
    for (int i = 0; i < n; ++i) {
        above += h_mask[i];
    }
    printf("%d of %d values above threshold\n", above, n);

    HIP_CHECK(hipHostFree(h_in));
    HIP_CHECK(hipHostFree(h_mask));
    return 0;
}
