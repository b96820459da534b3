// cudalint demo: unguarded-thread-index (bad). The kernel indexes global memory with the global thread id and never checks it against n.
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

// Launched with 1024 threads for 1000 elements: threads 1000..1023 read and write past the end.
__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i]; // expect: unguarded-thread-index
}

int main() {
    const int n = 1000;
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;  // 4 blocks = 1024 threads for 1000 elements
    const size_t bytes = n * sizeof(float);

    float* h_x = (float*)malloc(bytes);
    float* h_y = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        h_x[i] = static_cast<float>(rand()) / RAND_MAX + 0.5f;
        h_y[i] = static_cast<float>((i * 7919) % 1000) / 100.0f + 1.0f;
    }

    float* d_x = nullptr;
    float* d_y = nullptr;
    HIP_CHECK(hipMalloc(&d_x, bytes));
    HIP_CHECK(hipMalloc(&d_y, bytes));
    HIP_CHECK(hipMemcpy(d_x, h_x, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, h_y, bytes, hipMemcpyHostToDevice));

    saxpy<<<blocks, threads>>>(n, 2.0f, d_x, d_y);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_y, d_y, bytes, hipMemcpyDeviceToHost));
    printf("y[0] = %f, y[%d] = %f\n", h_y[0], n - 1, h_y[n - 1]);

    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    free(h_x);
    free(h_y);
    return 0;
}
