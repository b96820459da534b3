// Bad: byte counts computed with sizeof of a different element type than the buffer's.
#include <cstdio>
#include <cstdlib>
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
    CUDA_CHECK(cudaMalloc(&d_samples, n * sizeof(double))); // expect: sizeof-mismatch
    CUDA_CHECK(cudaMemcpy(d_samples, h_samples.data(), n * sizeof(double), cudaMemcpyHostToDevice)); // expect: sizeof-mismatch
    normalize<<<(n + 255) / 256, 256>>>(d_samples, 1.0f / n, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_samples));
}

static void outerProduct(const std::vector<float>& a, const std::vector<float>& b) {
    const int rows = static_cast<int>(a.size());
    const int cols = static_cast<int>(b.size());
    float *d_a = nullptr, *d_b = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, rows * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, cols * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, rows * cols * sizeof(double))); // expect: sizeof-mismatch
    CUDA_CHECK(cudaMemcpy(d_a, a.data(), rows * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    outer<<<grid, block>>>(d_a, d_b, d_out, rows, cols);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> h_out((size_t)rows * cols);
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, rows * cols * sizeof(float), cudaMemcpyDeviceToHost));
    printf("out[0] = %f\n", h_out[0]);
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_out));
}

int main() {
    std::vector<double> samples(10000);
    for (size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<double>(rand()) / RAND_MAX;
    uploadSamples(samples);

    std::vector<float> a(300, 1.5f), b(200, 2.0f);
    outerProduct(a, b);
    return 0;
}
