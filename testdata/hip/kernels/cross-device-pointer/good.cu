// cudalint demo: cross-device-pointer (good). Peer access is enabled before GPU 1 reads memory that lives on GPU 0.
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

__global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

int main() {
    int deviceCount = 0;
    HIP_CHECK(hipGetDeviceCount(&deviceCount));
    if (deviceCount < 2) {
        printf("this demo needs two GPUs (found %d)\n", deviceCount);
        return 0;
    }

    const int n = 1000;
    const size_t bytes = n * sizeof(float);
    float* h_a = (float*)malloc(bytes);
    float* h_b = (float*)malloc(bytes);
    float* h_c = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        h_a[i] = static_cast<float>(rand()) / RAND_MAX + 1.0f;
        h_b[i] = static_cast<float>(i % 17) * 0.5f + 0.25f;
    }

    float* d_a = nullptr;
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipMalloc(&d_a, bytes));
    HIP_CHECK(hipMemcpy(d_a, h_a, bytes, hipMemcpyHostToDevice));

    float* d_b = nullptr;
    float* d_c = nullptr;
    HIP_CHECK(hipSetDevice(1));
    HIP_CHECK(hipMalloc(&d_b, bytes));
    HIP_CHECK(hipMalloc(&d_c, bytes));
    HIP_CHECK(hipMemcpy(d_b, h_b, bytes, hipMemcpyHostToDevice));
    int canAccess = 0;
    HIP_CHECK(hipDeviceCanAccessPeer(&canAccess, 1, 0));
    if (!canAccess) {
        printf("GPU 1 cannot access GPU 0 memory; skipping\n");
        HIP_CHECK(hipFree(d_b));
        HIP_CHECK(hipFree(d_c));
        HIP_CHECK(hipSetDevice(0));
        HIP_CHECK(hipFree(d_a));
        return 0;
    }
    HIP_CHECK(hipDeviceEnablePeerAccess(0, 0));

    vectorAdd<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_c, d_c, bytes, hipMemcpyDeviceToHost));
    printf("c[0] = %f (a + b = %f)\n", h_c[0], h_a[0] + h_b[0]);

    HIP_CHECK(hipFree(d_b));
    HIP_CHECK(hipFree(d_c));
    HIP_CHECK(hipSetDevice(0));
    HIP_CHECK(hipFree(d_a));
    free(h_a);
    free(h_b);
    free(h_c);
    return 0;
}
