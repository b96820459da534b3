// Bad: device buffers handed to launchers, validation helpers and allocation wrappers, or kept in
// struct members and class fields, that nothing frees.
#include <cstdio>
#include <cstdlib>
#include <cmath>
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

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

// defined in another translation unit
__global__ void relax(const float* in, float* out, int n);

static void allocBuffer(void** buffer, size_t bytes) {
    HIP_CHECK(hipMalloc(buffer, bytes));
}

static void freeBuffer(void* buffer) {
    if (buffer) HIP_CHECK(hipFree(buffer));
}

static void launchSaxpy(float a, const float* d_x, float* d_y, int n) {
    saxpy<<<(n + 255) / 256, 256>>>(a, d_x, d_y, n);
    HIP_CHECK(hipGetLastError());
}

static bool verify(const float* d_result, const std::vector<float>& expected) {
    const int n = static_cast<int>(expected.size());
    std::vector<float> h(n);
    HIP_CHECK(hipMemcpy(h.data(), d_result, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        if (std::fabs(h[i] - expected[i]) > 1e-5f) return false;
    }
    return true;
}

static bool runSaxpy(const std::vector<float>& h_x, const std::vector<float>& h_y,
                     const std::vector<float>& expected) {
    const int n = static_cast<int>(h_x.size());
    float *d_x = nullptr, *d_y = nullptr;
    HIP_CHECK(hipMalloc(&d_x, n * sizeof(float))); // expect: device-memory-leak
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_x, h_x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, h_y.data(), n * sizeof(float), hipMemcpyHostToDevice));
    launchSaxpy(2.0f, d_x, d_y, n);
    const bool ok = verify(d_y, expected);
    HIP_CHECK(hipFree(d_y));
    return ok;
}

static void relaxAll(const std::vector<float>& h_in, int sweeps) {
    const int n = static_cast<int>(h_in.size());
    void *d_in = nullptr, *d_out = nullptr, *d_norm = nullptr;
    allocBuffer(&d_in, n * sizeof(float));
    allocBuffer(&d_out, n * sizeof(float));
    allocBuffer(&d_norm, sizeof(float)); // expect: device-memory-leak
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_norm, 0, sizeof(float)));
    for (int s = 0; s < sweeps; ++s) {
        relax<<<(n + 255) / 256, 256>>>((const float*)d_in, (float*)d_out, n);
        HIP_CHECK(hipGetLastError());
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
    HIP_CHECK(hipMalloc(&d_y, batch * sizeof(float)));
    HIP_CHECK(hipMemset(d_y, 0, batch * sizeof(float)));
    for (int b = 0; b < batches; ++b) {
        HIP_CHECK(hipMalloc(&d_x, batch * sizeof(float))); // expect: device-memory-leak
        HIP_CHECK(hipMemcpy(d_x, h_x.data() + (size_t)b * batch, batch * sizeof(float), hipMemcpyHostToDevice));
        launchSaxpy(1.0f, d_x, d_y, batch);
        if (!verify(d_y, expected)) printf("batch %d differs\n", b);
    }
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
}

struct Workspace {
    float* d_grad;
    float* d_moment;
    float* d_scratch;
    int n;
};

static void initWorkspace(Workspace& ws, int n) {
    ws.n = n;
    HIP_CHECK(hipMalloc(&ws.d_grad, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&ws.d_moment, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&ws.d_scratch, n * sizeof(float))); // expect: device-memory-leak
    HIP_CHECK(hipMemset(ws.d_moment, 0, n * sizeof(float)));
}

static void freeWorkspace(Workspace& ws) {
    HIP_CHECK(hipFree(ws.d_grad));
    HIP_CHECK(hipFree(ws.d_moment));
}

class DeviceHistogram {
public:
    explicit DeviceHistogram(int bins) : bins_(bins) {
        HIP_CHECK(hipMalloc(&d_counts_, bins * sizeof(unsigned int)));
        HIP_CHECK(hipMalloc(&d_edges_, (bins + 1) * sizeof(float))); // expect: device-memory-leak
    }
    ~DeviceHistogram() { hipFree(d_counts_); }

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
