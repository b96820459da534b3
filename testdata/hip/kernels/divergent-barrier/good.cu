// cudalint demo: divergent-barrier (good). Out-of-range threads load a neutral value instead of returning.
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

#define BLOCK_SIZE 256

// Every thread reaches every barrier; out-of-range threads contribute zero.
__global__ void blockSum(const float* in, float* partial, int n) {
    __shared__ float sdata[BLOCK_SIZE];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = sdata[0];
    }
}

int main() {
    const int n = 1000;
    const int blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    float* h_in = (float*)malloc(n * sizeof(float));
    float* h_partial = (float*)malloc(blocks * sizeof(float));
    double expected = 0.0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(rand() % 100) / 10.0f + 0.1f;
        expected += h_in[i];
    }

    float* d_in = nullptr;
    float* d_partial = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_partial, blocks * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in, n * sizeof(float), hipMemcpyHostToDevice));

    hipLaunchKernelGGL(blockSum, blocks, BLOCK_SIZE, 0, 0, d_in, d_partial, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_partial, d_partial, blocks * sizeof(float), hipMemcpyDeviceToHost));
    double total = 0.0;
    for (int b = 0; b < blocks; ++b) {
        total += h_partial[b];
    }
    printf("gpu sum = %f, cpu sum = %f\n", total, expected);

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_partial));
    free(h_in);
    free(h_partial);
    return 0;
}
