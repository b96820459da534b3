// Clean: RAII wrapper around hipMalloc/hipFree (destructor frees with a (void) cast), move-only ownership.
#include <cstdio>
#include <cstdlib>
#include <utility>
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

template <typename T>
class DeviceBuffer {
public:
    explicit DeviceBuffer(size_t count) : count_(count) {
        HIP_CHECK(hipMalloc(&ptr_, count_ * sizeof(T)));
    }
    ~DeviceBuffer() {
        if (ptr_ != nullptr) {
            (void)hipFree(ptr_);
        }
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept : ptr_(other.ptr_), count_(other.count_) {
        other.ptr_ = nullptr;
        other.count_ = 0;
    }

    void upload(const std::vector<T>& host) {
        HIP_CHECK(hipMemcpy(ptr_, host.data(), count_ * sizeof(T), hipMemcpyHostToDevice));
    }
    void download(std::vector<T>& host) const {
        host.resize(count_);
        HIP_CHECK(hipMemcpy(host.data(), ptr_, count_ * sizeof(T), hipMemcpyDeviceToHost));
    }
    void zero() {
        HIP_CHECK(hipMemset(ptr_, 0, count_ * sizeof(T)));
    }

    T* get() { return ptr_; }
    const T* get() const { return ptr_; }
    size_t size() const { return count_; }

private:
    T* ptr_ = nullptr;
    size_t count_ = 0;
};

__global__ void addBias(const float* x, const float* bias, float* y, int rows, int cols) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * cols) {
        y[idx] = x[idx] + bias[idx % cols];
    }
}

__global__ void accumulate(const float* src, float* dst, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        dst[idx] += src[idx];
    }
}

int main() {
    const int rows = 512;
    const int cols = 300;
    const int count = rows * cols;

    std::vector<float> h_x(count), h_bias(cols), h_y;
    for (int i = 0; i < count; ++i) h_x[i] = static_cast<float>(rand()) / RAND_MAX;
    for (int j = 0; j < cols; ++j) h_bias[j] = 0.01f * j;

    DeviceBuffer<float> x(count);
    DeviceBuffer<float> bias(cols);
    DeviceBuffer<float> y(count);
    DeviceBuffer<float> acc(count);
    x.upload(h_x);
    bias.upload(h_bias);
    acc.zero();

    const int threads = 256;
    const int blocks = (count + threads - 1) / threads;
    hipLaunchKernelGGL(addBias, blocks, threads, 0, 0, x.get(), bias.get(), y.get(), rows, cols);
    HIP_CHECK(hipGetLastError());

    for (int iter = 0; iter < 4; ++iter) {
        hipLaunchKernelGGL(accumulate, blocks, threads, 0, 0, y.get(), acc.get(), count);
        HIP_CHECK(hipGetLastError());
    }
    HIP_CHECK(hipDeviceSynchronize());

    acc.download(h_y);
    printf("acc[0] = %f acc[last] = %f\n", h_y[0], h_y[count - 1]);

    DeviceBuffer<float> moved(std::move(y));
    printf("moved buffer holds %zu floats\n", moved.size());
    return 0;
}
