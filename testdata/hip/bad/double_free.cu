// Bad: the same device pointer released twice with hipFree.
#include <cstdio>
#include <cstdlib>
#include <vector>
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

__global__ void fill(float* out, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = v;
    }
}

static void freeTwice(int n) {
    float* d_tmp = nullptr;
    HIP_CHECK(hipMalloc(&d_tmp, n * sizeof(float)));
    fill<<<(n + 255) / 256, 256>>>(d_tmp, 1.0f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_tmp));
    printf("scratch released\n");
    HIP_CHECK(hipFree(d_tmp)); // expect: double-free
}

static void copyPasteCleanup(int n) {
    float* d_a = nullptr;
    float* d_b = nullptr;
    HIP_CHECK(hipMalloc(&d_a, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_b, n * sizeof(float))); // expect: device-memory-leak
    fill<<<(n + 255) / 256, 256>>>(d_a, 2.0f, n);
    HIP_CHECK(hipGetLastError());
    fill<<<(n + 255) / 256, 256>>>(d_b, 3.0f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_a)); // expect: double-free
}

int main() {
    freeTwice(1000);
    copyPasteCleanup(1000);
    return 0;
}
