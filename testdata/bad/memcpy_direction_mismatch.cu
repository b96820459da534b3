// Bad: cudaMemcpy direction flags that contradict where the source and destination live.
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

// a check written as a block, used without `;` after the call (as some books write it)
#define CHECK(call)                                                           \
{                                                                             \
    const cudaError_t status_ = call;                                         \
    if (status_ != cudaSuccess)                                               \
    {                                                                         \
        printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(status_)); \
        exit(1);                                                              \
    }                                                                         \
}

__global__ void square(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * in[i];
    }
}

static bool roundTrip(const std::vector<float>& h_weights) {
    const size_t bytes = h_weights.size() * sizeof(float);
    float* d_weights = nullptr;
    std::vector<float> h_check(h_weights.size());
    CUDA_CHECK(cudaMalloc(&d_weights, bytes));
    CUDA_CHECK(cudaMemcpy(d_weights, h_weights.data(), bytes, cudaMemcpyDeviceToHost)); // expect: memcpy-direction-mismatch
    CUDA_CHECK(cudaMemcpy(h_check.data(), d_weights, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_weights));
    return h_check == h_weights;
}

static void squareOnDevice(const float* h_in, int n) {
    const size_t bytes = n * sizeof(float);
    float* h_out = (float*)malloc(bytes);
    float *d_in = nullptr, *d_out = nullptr;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
    square<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyHostToDevice)); // expect: memcpy-direction-mismatch
    printf("out[3] = %f\n", h_out[3]);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    free(h_out);
}

static void asyncUpload(const float* h_src, int n, cudaStream_t stream) {
    float* d_dst = nullptr;
    CUDA_CHECK(cudaMalloc(&d_dst, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpyAsync(d_dst, h_src, n * sizeof(float), cudaMemcpyDeviceToHost, stream)); // expect: memcpy-direction-mismatch
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaFree(d_dst));
}

// the call before a constant's declaration is a statement of its own
static void squareUnchecked(const float* h_in, float* h_out, const int n)
{
    const size_t bytes = sizeof(float) * n;
    float *d_in, *d_out;
    CHECK(cudaMalloc((void**)&d_in, bytes))
    CHECK(cudaMalloc((void**)&d_out, bytes))
    CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyDeviceToHost)) // expect: memcpy-direction-mismatch
    const int block_size = 128;
    const int grid_size = (n + block_size - 1) / block_size;
    square<<<grid_size, block_size>>>(d_in, d_out, n);
    CHECK(cudaGetLastError())
    CHECK(cudaMemcpy(d_out, h_out, bytes, cudaMemcpyDeviceToHost)) // expect: memcpy-direction-mismatch
    const float first = h_out[0];
    printf("%f\n", first);
    CHECK(cudaFree(d_in))
    CHECK(cudaFree(d_out))
}

int main() {
    const int n = 2048;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(rand() % 100) / 7.0f;
    printf("round trip ok: %d\n", roundTrip(h) ? 1 : 0);
    squareOnDevice(h.data(), n);
    std::vector<float> squares(n);
    squareUnchecked(h.data(), squares.data(), n);
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    asyncUpload(h.data(), n, stream);
    CUDA_CHECK(cudaStreamDestroy(stream));
    return 0;
}
