// Clean: if-guards, ternary guards, short-circuit guards and size_t casts on 1D kernels.
#include <cstdio>
#include <cstdlib>
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
    CUDA_CHECK(cudaMalloc((void**)&d_A, size));
    CUDA_CHECK(cudaMalloc((void**)&d_B, size));
    CUDA_CHECK(cudaMalloc((void**)&d_C, size));
    CUDA_CHECK(cudaMalloc((void**)&d_padded, padded * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void**)&d_counter, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_counter, 0, sizeof(int)));

    int threadsPerBlock = 256;
    int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
    vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
    CUDA_CHECK(cudaGetLastError());

    copyPadded<<<(padded + 255) / 256, 256>>>(d_C, d_padded, numElements, padded);
    CUDA_CHECK(cudaGetLastError());

    countPositive<<<blocksPerGrid, threadsPerBlock>>>(d_B, d_counter, numElements);
    CUDA_CHECK(cudaGetLastError());

    int positives = 0;
    CUDA_CHECK(cudaMemcpy(h_C, d_padded, padded * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&positives, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
    printf("C[0]=%f positives=%d\n", h_C[0], positives);

    // double precision and integer variants
    const size_t n = 1 << 18;
    double* d_x = nullptr;
    double* d_y = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_x, 0, n * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_y, 0, n * sizeof(double)));
    axpyLong<<<(unsigned int)((n + 255) / 256), 256>>>(d_x, d_y, 3.0, n);
    CUDA_CHECK(cudaGetLastError());

    const unsigned int len = 4096;
    int* d_a = nullptr;
    int* d_b = nullptr;
    int* d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, len * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_b, len * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, len * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_a, 1, len * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_b, 2, len * sizeof(int)));
    absDiff<<<(len + 127) / 128, 128>>>(d_a, d_b, d_out, len);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_A));
    CUDA_CHECK(cudaFree(d_B));
    CUDA_CHECK(cudaFree(d_C));
    CUDA_CHECK(cudaFree(d_padded));
    CUDA_CHECK(cudaFree(d_counter));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_out));
    free(h_A);
    free(h_B);
    free(h_C);
    return 0;
}
