// Bad: device buffers used by a copy or a kernel launch after hipFree released them.
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

__global__ void addOne(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] + 1.0f;
    }
}

static void readBackAfterFree(const std::vector<float>& h_in) {
    const int n = static_cast<int>(h_in.size());
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_out(n);
    float *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), bytes, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(addOne, (n + 255) / 256, 256, 0, 0, d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, bytes, hipMemcpyDeviceToHost)); // expect: use-after-free
    printf("out[0] = %f\n", h_out[0]);
}

static void launchAfterFree(const std::vector<float>& h_in) {
    const int n = static_cast<int>(h_in.size());
    const size_t bytes = n * sizeof(float);
    float *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), bytes, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(addOne, (n + 255) / 256, 256, 0, 0, d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_in));
    // second pass reuses the input that was already released
    hipLaunchKernelGGL(addOne, (n + 255) / 256, 256, 0, 0, d_in, d_out, n); // expect: use-after-free
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_out));
}

__global__ void scale(float* data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] *= factor;
    }
}

// The buffer is released before the whole second half of the pipeline: one finding at the first
// use, the later ones as its labels.
static void releasedEarly(const std::vector<float>& h_in) {
    const int n = static_cast<int>(h_in.size());
    const size_t bytes = n * sizeof(float);
    std::vector<float> h_out(n);
    float* d_data = nullptr;
    HIP_CHECK(hipMalloc(reinterpret_cast<void**>(&d_data), bytes));
    HIP_CHECK(hipMemcpy(d_data, h_in.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipFree(d_data));
    hipLaunchKernelGGL(scale, (n + 255) / 256, 256, 0, 0, d_data, 2.0f, n); // expect: use-after-free
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemset(d_data, 0, bytes));
    HIP_CHECK(hipMemcpy(h_out.data(), d_data, bytes, hipMemcpyDeviceToHost));
    printf("out[0] = %f\n", h_out[0]);
}

int main() {
    std::vector<float> h_in(1 << 12);
    for (size_t i = 0; i < h_in.size(); ++i) h_in[i] = static_cast<float>(i % 50);
    readBackAfterFree(h_in);
    launchAfterFree(h_in);
    releasedEarly(h_in);
    return 0;
}
