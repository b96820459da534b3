// cudalint demo: invalid-launch-config (bad). 2048 threads per block exceeds the 1024-thread hardware limit, so the kernel never runs.
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

__global__ void increment(int* counters, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        counters[i] += i % 3 + 1;
    }
}

int main() {
    const int n = 1000;
    int* h_counters = (int*)malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) {
        h_counters[i] = rand() % 100;
    }

    int* d_counters = nullptr;
    HIP_CHECK(hipMalloc(&d_counters, n * sizeof(int)));
    HIP_CHECK(hipMemcpy(d_counters, h_counters, n * sizeof(int), hipMemcpyHostToDevice));

    increment<<<(n + 2047) / 2048, 2048>>>(d_counters, n); // expect: invalid-launch-config
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_counters, d_counters, n * sizeof(int), hipMemcpyDeviceToHost));
    printf("counters[5] = %d\n", h_counters[5]);

    HIP_CHECK(hipFree(d_counters));
    free(h_counters);
    return 0;
}
