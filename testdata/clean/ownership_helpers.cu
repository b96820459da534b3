// Clean: buffers handed to launchers, validation helpers and library calls are freed by their
// owner; allocation wrappers are paired with their free wrapper; struct members and class fields
// are freed by the matching cleanup function or destructor; a buffer handed to code the file
// does not show is not judged.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "cuda_check.h"

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

// defined in another translation unit
__global__ void relax(const float* in, float* out, int n);
void registerForLater(float* buffer);

template <typename T>
static T* deviceAlloc(size_t count) {
    T* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
    return p;
}

template <typename T>
static void deviceFree(T*& p) {
    CUDA_CHECK(cudaFree(p));
    p = nullptr;
}

static void launchSaxpy(float a, const float* d_x, float* d_y, int n) {
    saxpy<<<(n + 255) / 256, 256>>>(a, d_x, d_y, n);
    CUDA_CHECK(cudaGetLastError());
}

static bool verify(const float* d_result, const std::vector<float>& expected) {
    const int n = static_cast<int>(expected.size());
    std::vector<float> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d_result, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        if (std::fabs(h[i] - expected[i]) > 1e-5f) return false;
    }
    return true;
}

static bool runSaxpy(cublasHandle_t handle, const std::vector<float>& h_x,
                     const std::vector<float>& h_y, const std::vector<float>& expected) {
    const int n = static_cast<int>(h_x.size());
    float* d_x = deviceAlloc<float>(n);
    float* d_y = deviceAlloc<float>(n);
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, h_y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    launchSaxpy(2.0f, d_x, d_y, n);
    const float alpha = -1.0f;
    cublasSaxpy(handle, n, &alpha, d_x, 1, d_y, 1);
    const bool ok = verify(d_y, expected);
    deviceFree(d_x);
    deviceFree(d_y);
    return ok;
}

static void perBatch(const std::vector<float>& h_x, int batch, int batches) {
    float* d_y = deviceAlloc<float>(batch);
    CUDA_CHECK(cudaMemset(d_y, 0, batch * sizeof(float)));
    for (int b = 0; b < batches; ++b) {
        float* d_x = nullptr;
        CUDA_CHECK(cudaMalloc(&d_x, batch * sizeof(float)));
        CUDA_CHECK(cudaMemcpy(d_x, h_x.data() + (size_t)b * batch, batch * sizeof(float), cudaMemcpyHostToDevice));
        launchSaxpy(1.0f, d_x, d_y, batch);
        relax<<<(batch + 255) / 256, 256>>>(d_y, d_x, batch);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaFree(d_x));
    }
    deviceFree(d_y);
}

static void keepForLater(int n) {
    float* d_cache = nullptr;
    CUDA_CHECK(cudaMalloc(&d_cache, n * sizeof(float)));
    registerForLater(d_cache);
}

struct Workspace {
    float* d_grad;
    float* d_moment;
    float* d_scratch;
    int n;
};

static void initWorkspace(Workspace& ws, int n) {
    ws.n = n;
    CUDA_CHECK(cudaMalloc(&ws.d_grad, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ws.d_moment, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&ws.d_scratch, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(ws.d_moment, 0, n * sizeof(float)));
}

static void freeWorkspace(Workspace& ws) {
    CUDA_CHECK(cudaFree(ws.d_grad));
    CUDA_CHECK(cudaFree(ws.d_moment));
    CUDA_CHECK(cudaFree(ws.d_scratch));
}

class DeviceHistogram {
public:
    explicit DeviceHistogram(int bins) : bins_(bins) {
        CUDA_CHECK(cudaMalloc(&d_counts_, bins * sizeof(unsigned int)));
        CUDA_CHECK(cudaMalloc(&d_edges_, (bins + 1) * sizeof(float)));
    }
    ~DeviceHistogram() {
        cudaFree(d_counts_);
        cudaFree(d_edges_);
    }

private:
    int bins_;
    unsigned int* d_counts_;
    float* d_edges_;
};

int main() {
    const int n = 1 << 16;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), expected(n, 2.0f);
    cublasHandle_t handle;
    cublasCreate(&handle);
    printf("saxpy %s\n", runSaxpy(handle, x, y, expected) ? "ok" : "wrong");
    cublasDestroy(handle);
    perBatch(x, 1024, n / 1024);
    keepForLater(n);
    Workspace ws;
    initWorkspace(ws, n);
    freeWorkspace(ws);
    DeviceHistogram histogram(64);
    return 0;
}
