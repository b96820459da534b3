// Bad: accesses reached only when the index is out of range (inverted guards, else branches, `<=` bounds),
// and a fixed slot past the end of a small allocation.
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

__global__ void zeroTail(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        out[i] = 0.0f; // expect: out-of-range-access
    }
}

__global__ void faultyCopy(const float* in, float* out, int size) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size || i < 0) {
        out[i] = -1.0f; // expect: out-of-range-access
    } else {
        out[i] = in[i];
    }
}

__global__ void elseBranch(const int* src, int* dst, int count) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < count) {
        dst[idx] = src[idx] * 3;
    } else {
        dst[idx] = 0; // expect: out-of-range-access
    }
}

__global__ void inclusiveBound(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) {
        y[i] = 2.0f * x[i]; // expect: out-of-range-access, out-of-range-access
    }
}

// Control: `<= n - 1` is a correct bound and must not be reported.
__global__ void inclusiveMinusOne(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n - 1) {
        y[i] = x[i] + 1.0f;
    }
}

// Statistics slots: 0 = positives, 1 = negatives, 2 = zeros, 3 = total; slot 6 was added to the
// kernel later but the allocation still reserves four counters.
__global__ void classify(const float* values, int* counters, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = values[i];
        if (v > 0.0f) atomicAdd(&counters[0], 1);
        else if (v < 0.0f) atomicAdd(&counters[1], 1);
        else atomicAdd(&counters[2], 1);
        atomicAdd(&counters[3], 1);
    }
    if (i == 0) {
        counters[6] = n;
    }
}

int main() {
    const int n = 1 << 20;
    float* d_values = nullptr;
    int* d_counters = nullptr;
    HIP_CHECK(hipMalloc(&d_values, n * sizeof(float)));
    HIP_CHECK(hipMemset(d_values, 0, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_counters, 4 * sizeof(int)));
    HIP_CHECK(hipMemset(d_counters, 0, 4 * sizeof(int)));
    classify<<<(n + 255) / 256, 256>>>(d_values, d_counters, n); // expect: out-of-range-access
    HIP_CHECK(hipGetLastError());
    int h_counters[4];
    HIP_CHECK(hipMemcpy(h_counters, d_counters, sizeof(h_counters), hipMemcpyDeviceToHost));
    printf("positives %d negatives %d zeros %d total %d\n", h_counters[0], h_counters[1], h_counters[2], h_counters[3]);
    HIP_CHECK(hipFree(d_counters));
    HIP_CHECK(hipFree(d_values));
    return 0;
}

// The same off-by-one kept in a flag.
__global__ void inclusiveFlag(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = i <= n;
    if (valid) {
        y[i] = x[i] * 0.5f; // expect: out-of-range-access, out-of-range-access
    }
}
