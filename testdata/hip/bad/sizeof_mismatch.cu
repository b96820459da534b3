// Bad: byte counts computed with sizeof of a different element type than the buffer's.
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

__global__ void normalize(float* samples, float inv, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        samples[i] *= inv;
    }
}

__global__ void outer(const float* a, const float* b, float* out, int rows, int cols) {
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) {
        out[r * cols + c] = a[r] * b[c];
    }
}

static void uploadSamples(const std::vector<double>& h_samples) {
    const int n = static_cast<int>(h_samples.size());
    float* d_samples = nullptr;
    HIP_CHECK(hipMalloc(&d_samples, n * sizeof(double))); // expect: sizeof-mismatch
    HIP_CHECK(hipMemcpy(d_samples, h_samples.data(), n * sizeof(double), hipMemcpyHostToDevice)); // expect: sizeof-mismatch
    hipLaunchKernelGGL(normalize, (n + 255) / 256, 256, 0, 0, d_samples, 1.0f / n, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipFree(d_samples));
}

static void outerProduct(const std::vector<float>& a, const std::vector<float>& b) {
    const int rows = static_cast<int>(a.size());
    const int cols = static_cast<int>(b.size());
    float *d_a = nullptr, *d_b = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_a, rows * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_b, cols * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, rows * cols * sizeof(double))); // expect: sizeof-mismatch
    HIP_CHECK(hipMemcpy(d_a, a.data(), rows * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_b, b.data(), cols * sizeof(float), hipMemcpyHostToDevice));
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    hipLaunchKernelGGL(outer, grid, block, 0, 0, d_a, d_b, d_out, rows, cols);
    HIP_CHECK(hipGetLastError());
    std::vector<float> h_out((size_t)rows * cols);
    HIP_CHECK(hipMemcpy(h_out.data(), d_out, rows * cols * sizeof(float), hipMemcpyDeviceToHost));
    printf("out[0] = %f\n", h_out[0]);
    HIP_CHECK(hipFree(d_a));
    HIP_CHECK(hipFree(d_b));
    HIP_CHECK(hipFree(d_out));
}

int main() {
    std::vector<double> samples(10000);
    for (size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<double>(rand()) / RAND_MAX;
    uploadSamples(samples);

    std::vector<float> a(300, 1.5f), b(200, 2.0f);
    outerProduct(a, b);
    return 0;
}
