// Clean: helper functions that allocate and return device pointers, explicit cudaError_t handling,
// cleanup on error paths, (void)cudaFree, count * sizeof(*ptr) sizes and several checking-macro styles.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char* file, int line, bool abort = true) {
    if (code != cudaSuccess) {
        fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
        if (abort) exit(code);
    }
}

#define checkCudaErrors(val) checkImpl((val), #val, __FILE__, __LINE__)
static void checkImpl(cudaError_t result, const char* func, const char* file, int line) {
    if (result != cudaSuccess) {
        fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line, static_cast<int>(result), func);
        exit(EXIT_FAILURE);
    }
}

#define getLastCudaError(msg) lastErrorImpl(msg, __FILE__, __LINE__)
static void lastErrorImpl(const char* msg, const char* file, int line) {
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "%s(%d): %s: %s\n", file, line, msg, cudaGetErrorString(err));
        exit(EXIT_FAILURE);
    }
}

__global__ void normalize(float* values, float invNorm, int count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        values[i] *= invNorm;
    }
}

__global__ void gather(const float* src, const int* indices, float* dst, int count, int srcCount) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        int j = indices[i];
        dst[i] = (j >= 0 && j < srcCount) ? src[j] : 0.0f;
    }
}

// Allocates a device copy of the host vector; the caller owns the result.
static float* toDevice(const std::vector<float>& host) {
    float* d = nullptr;
    gpuErrchk(cudaMalloc(&d, host.size() * sizeof(*d)));
    gpuErrchk(cudaMemcpy(d, host.data(), host.size() * sizeof(*d), cudaMemcpyHostToDevice));
    return d;
}

static cudaError_t allocIndices(int** out, const std::vector<int>& host) {
    int* d = nullptr;
    cudaError_t err = cudaMalloc(&d, host.size() * sizeof(int));
    if (err != cudaSuccess) {
        return err;
    }
    err = cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
    if (err != cudaSuccess) {
        cudaFree(d);
        return err;
    }
    *out = d;
    return cudaSuccess;
}

static cudaError_t syncDevice() {
    return cudaDeviceSynchronize();
}

int main() {
    const int count = 5000;
    std::vector<float> h_values(count);
    std::vector<int> h_idx(count);
    for (int i = 0; i < count; ++i) {
        h_values[i] = static_cast<float>(rand() % 1000) + 1.0f;
        h_idx[i] = (i * 7) % count;
    }

    float* d_values = toDevice(h_values);
    int* d_idx = nullptr;
    if (allocIndices(&d_idx, h_idx) != cudaSuccess) {
        fprintf(stderr, "could not upload indices\n");
        (void)cudaFree(d_values);
        return EXIT_FAILURE;
    }

    float* d_out = nullptr;
    cudaError_t err = cudaMalloc(&d_out, count * sizeof(*d_out));
    if (err != cudaSuccess) {
        fprintf(stderr, "cudaMalloc failed: %s\n", cudaGetErrorString(err));
        cudaFree(d_values);
        cudaFree(d_idx);
        return EXIT_FAILURE;
    }

    normalize<<<(count + 255) / 256, 256>>>(d_values, 1.0f / 1000.0f, count);
    getLastCudaError("normalize kernel failed");

    gather<<<(count + 255) / 256, 256>>>(d_values, d_idx, d_out, count, count);
    checkCudaErrors(cudaPeekAtLastError());

    if (syncDevice() != cudaSuccess) {
        fprintf(stderr, "kernel execution failed\n");
        return EXIT_FAILURE;
    }

    std::vector<float> h_out(count);
    checkCudaErrors(cudaMemcpy(h_out.data(), d_out, count * sizeof(float), cudaMemcpyDeviceToHost));
    printf("out[1] = %f\n", h_out[1]);

    gpuErrchk(cudaFree(d_out));
    gpuErrchk(cudaFree(d_idx));
    (void)cudaFree(d_values);
    return 0;
}
