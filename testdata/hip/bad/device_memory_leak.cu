// Bad: device allocations that are never released (allocation inside a loop, and a function-local buffer).
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

__global__ void scaleBatch(const float* in, float* out, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * s;
    }
}

__global__ void sumKernel(const float* in, float* total, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(total, in[i]);
    }
}

static void processBatches(const std::vector<float>& h_in, int batchSize, int numBatches) {
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_out, batchSize * sizeof(float)));
    for (int b = 0; b < numBatches; ++b) {
        float* d_batch = nullptr;
        HIP_CHECK(hipMalloc(&d_batch, batchSize * sizeof(float))); // expect: device-memory-leak
        HIP_CHECK(hipMemcpy(d_batch, h_in.data() + (size_t)b * batchSize, batchSize * sizeof(float), hipMemcpyHostToDevice));
        scaleBatch<<<(batchSize + 255) / 256, 256>>>(d_batch, d_out, 0.5f, batchSize);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_out));
}

static float deviceMean(const std::vector<float>& h_values) {
    const int n = static_cast<int>(h_values.size());
    float* d_values = nullptr;
    float* d_total = nullptr;
    HIP_CHECK(hipMalloc(&d_values, n * sizeof(float))); // expect: device-memory-leak
    HIP_CHECK(hipMalloc(&d_total, sizeof(float)));
    HIP_CHECK(hipMemcpy(d_values, h_values.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_total, 0, sizeof(float)));
    sumKernel<<<64, 256>>>(d_values, d_total, n);
    HIP_CHECK(hipGetLastError());
    float total = 0.0f;
    HIP_CHECK(hipMemcpy(&total, d_total, sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_total));
    return total / n;
}

int main() {
    const int batchSize = 4096;
    const int numBatches = 16;
    std::vector<float> h_in((size_t)batchSize * numBatches);
    for (size_t i = 0; i < h_in.size(); ++i) h_in[i] = static_cast<float>(rand() % 1000) / 10.0f;
    processBatches(h_in, batchSize, numBatches);
    for (int k = 0; k < 3; ++k) {
        printf("mean = %f\n", deviceMean(h_in));
    }
    return 0;
}
