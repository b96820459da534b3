// Clean: helper functions that allocate and return device pointers, explicit hipError_t handling,
// cleanup on error paths, (void)hipFree, count * sizeof(*ptr) sizes and several checking-macro styles.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(hipError_t code, const char* file, int line, bool abort = true) {
    if (code != hipSuccess) {
        fprintf(stderr, "GPUassert: %s %s %d\n", hipGetErrorString(code), file, line);
        if (abort) exit(code);
    }
}

#define checkCudaErrors(val) checkImpl((val), #val, __FILE__, __LINE__)
static void checkImpl(hipError_t result, const char* func, const char* file, int line) {
    if (result != hipSuccess) {
        fprintf(stderr, "CUDA error at %s:%d code=%d \"%s\"\n", file, line, static_cast<int>(result), func);
        exit(EXIT_FAILURE);
    }
}

#define getLastCudaError(msg) lastErrorImpl(msg, __FILE__, __LINE__)
static void lastErrorImpl(const char* msg, const char* file, int line) {
    hipError_t err = hipGetLastError();
    if (err != hipSuccess) {
        fprintf(stderr, "%s(%d): %s: %s\n", file, line, msg, hipGetErrorString(err));
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
    gpuErrchk(hipMalloc(&d, host.size() * sizeof(*d)));
    gpuErrchk(hipMemcpy(d, host.data(), host.size() * sizeof(*d), hipMemcpyHostToDevice));
    return d;
}

static hipError_t allocIndices(int** out, const std::vector<int>& host) {
    int* d = nullptr;
    hipError_t err = hipMalloc(&d, host.size() * sizeof(int));
    if (err != hipSuccess) {
        return err;
    }
    err = hipMemcpy(d, host.data(), host.size() * sizeof(int), hipMemcpyHostToDevice);
    if (err != hipSuccess) {
        hipFree(d);
        return err;
    }
    *out = d;
    return hipSuccess;
}

static hipError_t syncDevice() {
    return hipDeviceSynchronize();
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
    if (allocIndices(&d_idx, h_idx) != hipSuccess) {
        fprintf(stderr, "could not upload indices\n");
        (void)hipFree(d_values);
        return EXIT_FAILURE;
    }

    float* d_out = nullptr;
    hipError_t err = hipMalloc(&d_out, count * sizeof(*d_out));
    if (err != hipSuccess) {
        fprintf(stderr, "hipMalloc failed: %s\n", hipGetErrorString(err));
        hipFree(d_values);
        hipFree(d_idx);
        return EXIT_FAILURE;
    }

    normalize<<<(count + 255) / 256, 256>>>(d_values, 1.0f / 1000.0f, count);
    getLastCudaError("normalize kernel failed");

    gather<<<(count + 255) / 256, 256>>>(d_values, d_idx, d_out, count, count);
    checkCudaErrors(hipPeekAtLastError());

    if (syncDevice() != hipSuccess) {
        fprintf(stderr, "kernel execution failed\n");
        return EXIT_FAILURE;
    }

    std::vector<float> h_out(count);
    checkCudaErrors(hipMemcpy(h_out.data(), d_out, count * sizeof(float), hipMemcpyDeviceToHost));
    printf("out[1] = %f\n", h_out[1]);

    gpuErrchk(hipFree(d_out));
    gpuErrchk(hipFree(d_idx));
    (void)hipFree(d_values);
    return 0;
}
