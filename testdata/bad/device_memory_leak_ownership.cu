// Bad: device buffers handed to launchers, validation helpers and allocation wrappers, or kept in
// struct members and class fields, that nothing frees.
#include <cstdio>
#include <cstdlib>
#include <cmath>
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

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

// defined in another translation unit
__global__ void relax(const float* in, float* out, int n);

static void allocBuffer(void** buffer, size_t bytes) {
    CUDA_CHECK(cudaMalloc(buffer, bytes));
}

static void freeBuffer(void* buffer) {
    if (buffer) CUDA_CHECK(cudaFree(buffer));
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

static bool runSaxpy(const std::vector<float>& h_x, const std::vector<float>& h_y,
                     const std::vector<float>& expected) {
    const int n = static_cast<int>(h_x.size());
    float *d_x = nullptr, *d_y = nullptr;
    CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float))); // expect: device-memory-leak
    CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_x, h_x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, h_y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    launchSaxpy(2.0f, d_x, d_y, n);
    const bool ok = verify(d_y, expected);
    CUDA_CHECK(cudaFree(d_y));
    return ok;
}

static void relaxAll(const std::vector<float>& h_in, int sweeps) {
    const int n = static_cast<int>(h_in.size());
    void *d_in = nullptr, *d_out = nullptr, *d_norm = nullptr;
    allocBuffer(&d_in, n * sizeof(float));
    allocBuffer(&d_out, n * sizeof(float));
    allocBuffer(&d_norm, sizeof(float)); // expect: device-memory-leak
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_norm, 0, sizeof(float)));
    for (int s = 0; s < sweeps; ++s) {
        relax<<<(n + 255) / 256, 256>>>((const float*)d_in, (float*)d_out, n);
        CUDA_CHECK(cudaGetLastError());
        void* t = d_in;
        d_in = d_out;
        d_out = t;
    }
    freeBuffer(d_in);
    freeBuffer(d_out);
}

static void perBatch(const std::vector<float>& h_x, const std::vector<float>& expected, int batch,
                     int batches) {
    float* d_x = nullptr;
    float* d_y = nullptr;
    CUDA_CHECK(cudaMalloc(&d_y, batch * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_y, 0, batch * sizeof(float)));
    for (int b = 0; b < batches; ++b) {
        CUDA_CHECK(cudaMalloc(&d_x, batch * sizeof(float))); // expect: device-memory-leak
        CUDA_CHECK(cudaMemcpy(d_x, h_x.data() + (size_t)b * batch, batch * sizeof(float), cudaMemcpyHostToDevice));
        launchSaxpy(1.0f, d_x, d_y, batch);
        if (!verify(d_y, expected)) printf("batch %d differs\n", b);
    }
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
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
    CUDA_CHECK(cudaMalloc(&ws.d_scratch, n * sizeof(float))); // expect: device-memory-leak
    CUDA_CHECK(cudaMemset(ws.d_moment, 0, n * sizeof(float)));
}

static void freeWorkspace(Workspace& ws) {
    CUDA_CHECK(cudaFree(ws.d_grad));
    CUDA_CHECK(cudaFree(ws.d_moment));
}

class DeviceHistogram {
public:
    explicit DeviceHistogram(int bins) : bins_(bins) {
        CUDA_CHECK(cudaMalloc(&d_counts_, bins * sizeof(unsigned int)));
        CUDA_CHECK(cudaMalloc(&d_edges_, (bins + 1) * sizeof(float))); // expect: device-memory-leak
    }
    ~DeviceHistogram() { cudaFree(d_counts_); }

private:
    int bins_;
    unsigned int* d_counts_;
    float* d_edges_;
};

int main() {
    const int n = 1 << 16;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), expected(n, 4.0f);
    printf("saxpy %s\n", runSaxpy(x, y, expected) ? "ok" : "wrong");
    relaxAll(x, 10);
    perBatch(x, expected, 1024, n / 1024);
    Workspace ws;
    initWorkspace(ws, n);
    freeWorkspace(ws);
    DeviceHistogram histogram(64);
    return 0;
}
