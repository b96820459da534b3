// Clean: if-guards, ternary guards, short-circuit guards and size_t casts on 1D kernels.
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

__global__ void vectorAdd(const float* A, const float* B, float* C, int numElements) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numElements) {
        C[i] = A[i] + B[i] + 0.0f;
    }
}

__global__ void copyPadded(const float* src, float* dst, int count, int padded) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < padded) {
        dst[i] = (i < count) ? src[i] : 0.0f;
    }
}

__global__ void countPositive(const float* values, int* counter, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && values[i] > 0.0f) {
        atomicAdd(counter, 1);
    }
}

__global__ void axpyLong(const double* x, double* y, double alpha, size_t n) {
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] += alpha * x[i];
    }
}

__global__ void absDiff(const int* a, const int* b, int* out, unsigned int len) {
    unsigned int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid < len) {
        int d = a[gid] - b[gid];
        out[gid] = d < 0 ? -d : d;
    }
}

int main() {
    const int numElements = 50000;
    const int padded = 50176;
    const size_t size = numElements * sizeof(float);

    float* h_A = (float*)malloc(size);
    float* h_B = (float*)malloc(size);
    float* h_C = (float*)malloc(padded * sizeof(float));
    if (h_A == NULL || h_B == NULL || h_C == NULL) {
        fprintf(stderr, "Failed to allocate host vectors!\n");
        exit(EXIT_FAILURE);
    }
    for (int i = 0; i < numElements; ++i) {
        h_A[i] = rand() / (float)RAND_MAX;
        h_B[i] = rand() / (float)RAND_MAX - 0.5f;
    }

    float* d_A = NULL;
    float* d_B = NULL;
    float* d_C = NULL;
    float* d_padded = NULL;
    int* d_counter = NULL;
    HIP_CHECK(hipMalloc((void**)&d_A, size));
    HIP_CHECK(hipMalloc((void**)&d_B, size));
    HIP_CHECK(hipMalloc((void**)&d_C, size));
    HIP_CHECK(hipMalloc((void**)&d_padded, padded * sizeof(float)));
    HIP_CHECK(hipMalloc((void**)&d_counter, sizeof(int)));
    HIP_CHECK(hipMemcpy(d_A, h_A, size, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_B, h_B, size, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_counter, 0, sizeof(int)));

    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    hipLaunchKernelGGL(vectorAdd, blocksPerGrid, threadsPerBlock, 0, 0, d_A, d_B, d_C, numElements);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(copyPadded, (padded + 255) / 256, 256, 0, 0, d_C, d_padded, numElements, padded);
    HIP_CHECK(hipGetLastError());

    hipLaunchKernelGGL(countPositive, blocksPerGrid, threadsPerBlock, 0, 0, d_B, d_counter, numElements);
    HIP_CHECK(hipGetLastError());

    int positives = 0;
    HIP_CHECK(hipMemcpy(h_C, d_padded, padded * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(&positives, d_counter, sizeof(int), hipMemcpyDeviceToHost));
    printf("C[0]=%f positives=%d\n", h_C[0], positives);

    // double precision and integer variants
    const size_t n = 1 << 18;
    double* d_x = nullptr;
    double* d_y = nullptr;
    HIP_CHECK(hipMalloc(&d_x, n * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(double)));
    HIP_CHECK(hipMemset(d_x, 0, n * sizeof(double)));
    HIP_CHECK(hipMemset(d_y, 0, n * sizeof(double)));
    hipLaunchKernelGGL(axpyLong, (unsigned int)((n + 255) / 256), 256, 0, 0, d_x, d_y, 3.0, n);
    HIP_CHECK(hipGetLastError());

    const unsigned int len = 4096;
    int* d_a = nullptr;
    int* d_b = nullptr;
    int* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_a, len * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_b, len * sizeof(int)));
    HIP_CHECK(hipMalloc(&d_out, len * sizeof(int)));
    HIP_CHECK(hipMemset(d_a, 1, len * sizeof(int)));
    HIP_CHECK(hipMemset(d_b, 2, len * sizeof(int)));
    hipLaunchKernelGGL(absDiff, (len + 127) / 128, 128, 0, 0, d_a, d_b, d_out, len);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    HIP_CHECK(hipFree(d_A));
    HIP_CHECK(hipFree(d_B));
    HIP_CHECK(hipFree(d_C));
    HIP_CHECK(hipFree(d_padded));
    HIP_CHECK(hipFree(d_counter));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    HIP_CHECK(hipFree(d_out));
    free(h_A);
    free(h_B);
    free(h_C);
    return 0;
}
