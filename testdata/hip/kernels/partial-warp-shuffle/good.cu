// cudalint demo: partial-warp-shuffle (good). The whole warp reaches the shuffle; lanes past n add zero.
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

#define FULL_MASK 0xffffffff

// Each warp adds its elements and lane 0 adds the warp's sum to the total.
__global__ void warpSums(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(out, v);
    }
}

int main() {
    const int n = 1000;
    const int blocks = (n + 255) / 256;
    float* h_in = (float*)malloc(n * sizeof(float));
    double expected = 0.0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(i % 7);
        expected += h_in[i];
    }
    float* d_in = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in, n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_out, 0, sizeof(float)));
    hipLaunchKernelGGL(warpSums, blocks, 256, 0, 0, d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    float total = 0.0f;
    HIP_CHECK(hipMemcpy(&total, d_out, sizeof(float), hipMemcpyDeviceToHost));
    printf("gpu sum = %f, cpu sum = %f\n", total, expected);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    free(h_in);
    return 0;
}
