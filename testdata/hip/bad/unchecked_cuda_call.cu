// Bad: CUDA runtime calls whose hipError_t result is silently discarded, next to correctly handled ones.
// One finding per function, on its first unchecked call; the others are its labels.
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

__global__ void axpb(float* y, float a, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * y[i] + b;
    }
}

static hipError_t resetBuffer(float* d, int n) {
    return hipMemset(d, 0, n * sizeof(float));
}

// Outside the end of main, a discarded hipFree is still reported.
static void release(float* d) {
    hipFree(d); // expect: unchecked-cuda-call
}

int main() {
    const int n = 100000;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(rand()) / RAND_MAX;

    hipSetDevice(0); // expect: unchecked-cuda-call

    float* d_y = nullptr;
    float* d_tmp = nullptr;
    hipMalloc(&d_y, bytes); // expect-label: unchecked-cuda-call
    hipError_t err = hipMalloc(&d_tmp, bytes);
    if (err != hipSuccess) {
        fprintf(stderr, "hipMalloc d_tmp: %s\n", hipGetErrorString(err));
        hipFree(d_y);
        return EXIT_FAILURE;
    }

    hipMemcpy(d_y, h.data(), bytes, hipMemcpyHostToDevice); // expect-label: unchecked-cuda-call
    if (hipMemset(d_tmp, 0, bytes) != hipSuccess) {
        fprintf(stderr, "memset failed\n");
        return EXIT_FAILURE;
    }

    hipStream_t stream;
    hipStreamCreate(&stream); // expect-label: unchecked-cuda-call

    hipLaunchKernelGGL(axpb, (n + 255) / 256, 256, 0, stream, d_y, 2.0f, 1.0f, n);
    HIP_CHECK(hipGetLastError());

    hipMemcpyAsync(d_tmp, d_y, bytes, hipMemcpyDeviceToDevice, stream); // expect-label: unchecked-cuda-call
    hipStreamSynchronize(stream); // expect-label: unchecked-cuda-call
    hipDeviceSynchronize(); // expect-label: unchecked-cuda-call

    // A bare hipGetLastError() deliberately clears the error state: not reported.
    hipGetLastError();

    HIP_CHECK(resetBuffer(d_tmp, n));
    hipMemcpy(h.data(), d_y, bytes, hipMemcpyDeviceToHost); // expect-label: unchecked-cuda-call
    printf("y[0] = %f\n", h[0]);

    HIP_CHECK(hipStreamDestroy(stream));
    hipFree(d_tmp); // teardown at the end of main: reported only with strict-error-checks
    (void)hipFree(d_y);
    return 0;
}
