// cudalint demo: unchecked-kernel-launch (good). The launch status is checked right after the launch.
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

int main(int argc, char** argv) {
    const int n = 1000;
    const int threads = (argc > 1) ? atoi(argv[1]) : 256;
    const size_t bytes = n * sizeof(float);
    float* h_data = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        h_data[i] = static_cast<float>(rand() % 1000) / 8.0f;
    }

    float* d_data = nullptr;
    HIP_CHECK(hipMalloc(&d_data, bytes));
    HIP_CHECK(hipMemcpy(d_data, h_data, bytes, hipMemcpyHostToDevice));

    hipLaunchKernelGGL(offsetValues, (n + threads - 1) / threads, threads, 0, 0, d_data, 10.0f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_data, d_data, bytes, hipMemcpyDeviceToHost));
    printf("data[0] = %f (threads per block: %d)\n", h_data[0], threads);

    HIP_CHECK(hipFree(d_data));
    free(h_data);
    return 0;
}
