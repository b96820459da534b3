// Bad: device buffers used by a copy or a kernel launch after cudaFree released them.
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
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
    addOne<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost)); // expect: use-after-free
    printf("out[0] = %f\n", h_out[0]);
}

static void launchAfterFree(const std::vector<float>& h_in) {
    const int n = static_cast<int>(h_in.size());
    const size_t bytes = n * sizeof(float);
    float *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
    addOne<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(d_in));
    // second pass reuses the input that was already released
    addOne<<<(n + 255) / 256, 256>>>(d_in, d_out, n); // expect: use-after-free
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_out));
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
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_data), bytes));
    CUDA_CHECK(cudaMemcpy(d_data, h_in.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaFree(d_data));
    scale<<<(n + 255) / 256, 256>>>(d_data, 2.0f, n); // expect: use-after-free
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemset(d_data, 0, bytes));
    CUDA_CHECK(cudaMemcpy(h_out.data(), d_data, bytes, cudaMemcpyDeviceToHost));
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
