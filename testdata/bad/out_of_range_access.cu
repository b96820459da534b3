// Bad: accesses reached only when the index is out of range (inverted guards, else branches, `<=` bounds).
#include <cuda_runtime.h>

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


// The same off-by-one kept in a flag.
__global__ void inclusiveFlag(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = i <= n;
    if (valid) {
        y[i] = x[i] * 0.5f; // expect: out-of-range-access, out-of-range-access
    }
}
