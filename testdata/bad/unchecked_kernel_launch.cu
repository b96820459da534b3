// Bad: kernel launches whose launch error is never queried with cudaGetLastError()/cudaPeekAtLastError().
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    cudaGetErrorString(err_), __FILE__, __LINE__);            \
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
    initOnes<<<(n + 255) / 256, 256>>>(d_data, n); // expect: unchecked-kernel-launch
}

// One check after two launches reads the first one's failure too: a launch error stays the last
// error until something reads it.
static void twoLaunchesOneCheck(float* d_a, float* d_b, int n) {
    prefixStep<<<(n + 255) / 256, 256>>>(d_a, d_b, n, 1);
    prefixStep<<<(n + 255) / 256, 256>>>(d_b, d_a, n, 2);
    CUDA_CHECK(cudaGetLastError());
}

static void syncOnly(float* d_a, float* d_b, int n) {
    prefixStep<<<(n + 255) / 256, 256>>>(d_a, d_b, n, 4); // expect: unchecked-kernel-launch
    CUDA_CHECK(cudaDeviceSynchronize());
}

static void errorDiscarded(float* d_a, float* d_b, int n) {
    prefixStep<<<(n + 255) / 256, 256>>>(d_b, d_a, n, 8); // expect: unchecked-kernel-launch
    cudaGetLastError();
}

static void checkedProperly(float* d_a, float* d_b, int n) {
    prefixStep<<<(n + 255) / 256, 256>>>(d_a, d_b, n, 16);
    CUDA_CHECK(cudaPeekAtLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
}

int main() {
    const int n = 1 << 12;
    float* d_a = nullptr;
    float* d_b = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_b, 0, n * sizeof(float)));

    launchWithoutCheck(d_a, n);
    twoLaunchesOneCheck(d_a, d_b, n);
    syncOnly(d_a, d_b, n);
    errorDiscarded(d_a, d_b, n);
    checkedProperly(d_a, d_b, n);

    initOnes<<<(n + 255) / 256, 256>>>(d_b, n); // expect: unchecked-kernel-launch
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<float> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("a[n-1] = %f\n", h[n - 1]);
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    return 0;
}
