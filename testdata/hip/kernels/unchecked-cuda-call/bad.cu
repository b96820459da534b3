// cudalint demo: unchecked-cuda-call (bad). If hipMalloc or the copies fail, the program carries on with garbage and nobody notices.
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

__global__ void offsetValues(float* data, float offset, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] += offset;
    }
}

int main() {
    const int n = 1000;
    const size_t bytes = n * sizeof(float);
    float* h_data = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        h_data[i] = static_cast<float>(rand() % 1000) / 8.0f;
    }

    float* d_data = nullptr;
    hipMalloc(&d_data, bytes); // expect: unchecked-cuda-call
    hipMemcpy(d_data, h_data, bytes, hipMemcpyHostToDevice); // expect-label: unchecked-cuda-call

    offsetValues<<<(n + 255) / 256, 256>>>(d_data, 10.0f, n);
    HIP_CHECK(hipGetLastError());

    hipMemcpy(h_data, d_data, bytes, hipMemcpyDeviceToHost); // expect-label: unchecked-cuda-call
    printf("data[0] = %f\n", h_data[0]);

    hipFree(d_data); // teardown at the end of main: reported only with strict-error-checks
    free(h_data);
    return 0;
}
