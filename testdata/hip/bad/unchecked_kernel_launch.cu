// Bad: kernel launches whose launch error is never queried with hipGetLastError()/hipPeekAtLastError().
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

__global__ void initOnes(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = 1.0f;
    }
}

__global__ void prefixStep(const float* in, float* out, int n, int offset) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (i >= offset) ? in[i] + in[i - offset] : in[i];
    }
}

static void launchWithoutCheck(float* d_data, int n) {
    hipLaunchKernelGGL(initOnes, (n + 255) / 256, 256, 0, 0, d_data, n); // expect: unchecked-kernel-launch
}

// One check after two launches reads the first one's failure too: a launch error stays the last
// error until something reads it.
static void twoLaunchesOneCheck(float* d_a, float* d_b, int n) {
    hipLaunchKernelGGL(prefixStep, (n + 255) / 256, 256, 0, 0, d_a, d_b, n, 1);
    hipLaunchKernelGGL(prefixStep, (n + 255) / 256, 256, 0, 0, d_b, d_a, n, 2);
    HIP_CHECK(hipGetLastError());
}

static void syncOnly(float* d_a, float* d_b, int n) {
    hipLaunchKernelGGL(prefixStep, (n + 255) / 256, 256, 0, 0, d_a, d_b, n, 4); // expect: unchecked-kernel-launch
    HIP_CHECK(hipDeviceSynchronize());
}

static void errorDiscarded(float* d_a, float* d_b, int n) {
    hipLaunchKernelGGL(prefixStep, (n + 255) / 256, 256, 0, 0, d_b, d_a, n, 8); // expect: unchecked-kernel-launch
    hipGetLastError();
}

static void checkedProperly(float* d_a, float* d_b, int n) {
    hipLaunchKernelGGL(prefixStep, (n + 255) / 256, 256, 0, 0, d_a, d_b, n, 16);
    HIP_CHECK(hipPeekAtLastError());
    HIP_CHECK(hipDeviceSynchronize());
}

int main() {
    const int n = 1 << 12;
    float* d_a = nullptr;
    float* d_b = nullptr;
    HIP_CHECK(hipMalloc(&d_a, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_b, n * sizeof(float)));
    HIP_CHECK(hipMemset(d_b, 0, n * sizeof(float)));

    launchWithoutCheck(d_a, n);
    twoLaunchesOneCheck(d_a, d_b, n);
    syncOnly(d_a, d_b, n);
    errorDiscarded(d_a, d_b, n);
    checkedProperly(d_a, d_b, n);

    hipLaunchKernelGGL(initOnes, (n + 255) / 256, 256, 0, 0, d_b, n); // expect: unchecked-kernel-launch
    HIP_CHECK(hipDeviceSynchronize());

    std::vector<float> h(n);
    HIP_CHECK(hipMemcpy(h.data(), d_a, n * sizeof(float), hipMemcpyDeviceToHost));
    printf("a[n-1] = %f\n", h[n - 1]);
    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    return 0;
}
