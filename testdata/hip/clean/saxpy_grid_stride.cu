// Clean: grid-stride loops and early-return guards with fully checked host code.
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

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = a * x[i] + y[i];
    }
}

__global__ void scaleInPlace(float* data, float factor, size_t count) {
    size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < count; idx += stride) {
        data[idx] *= factor;
    }
}

__global__ void relu(const float* in, float* out, int numElements) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid >= numElements) return;
    float v = in[tid];
    out[tid] = v > 0.0f ? v : 0.0f;
}

__global__ void clampValues(float* values, float lo, float hi, int n) {
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) {
        return;
    }
    values[i] = fminf(fmaxf(values[i], lo), hi);
}

int main() {
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_x(n), h_y(n), h_out(n);
    for (int i = 0; i < n; ++i) {
        h_x[i] = static_cast<float>(rand()) / RAND_MAX - 0.5f;
        h_y[i] = static_cast<float>(i % 13) * 0.25f;
    }

    float* d_x = nullptr;
    float* d_y = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_x, bytes));
    HIP_CHECK(hipMalloc(&d_y, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpy(d_x, h_x.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, h_y.data(), bytes, hipMemcpyHostToDevice));

    int device = 0;
    int numSMs = 0;
    HIP_CHECK(hipGetDevice(&device));
    HIP_CHECK(hipDeviceGetAttribute(&numSMs, hipDevAttrMultiProcessorCount, device));

    hipLaunchKernelGGL(saxpy, 32 * numSMs, 256, 0, 0, n, 2.0f, d_x, d_y);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(scaleInPlace, 4 * numSMs, 512, 0, 0, d_y, 0.5f, static_cast<size_t>(n));
    HIP_CHECK(hipGetLastError());

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    hipLaunchKernelGGL(relu, blocks, threads, 0, 0, d_y, d_out, n);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(clampValues, blocks, threads, 0, 0, d_out, 0.0f, 1.0f, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipMemcpy(h_out.data(), d_out, bytes, hipMemcpyDeviceToHost));
    printf("out[0]=%f out[n-1]=%f\n", h_out[0], h_out[n - 1]);

    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipFree(d_out));
    return 0;
}
