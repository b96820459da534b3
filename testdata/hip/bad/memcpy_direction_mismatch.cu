// Bad: hipMemcpy direction flags that contradict where the source and destination live.
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

// a check written as a block, used without `;` after the call (as some books write it)
#define CHECK(call)                                                           \
{                                                                             \
    const hipError_t status_ = call;                                         \
    if (status_ != hipSuccess)                                               \
    {                                                                         \
        printf("%s:%d: %s\n", __FILE__, __LINE__, hipGetErrorString(status_)); \
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
    HIP_CHECK(hipMalloc(&d_weights, bytes));
    HIP_CHECK(hipMemcpy(d_weights, h_weights.data(), bytes, hipMemcpyDeviceToHost)); // expect: memcpy-direction-mismatch
    HIP_CHECK(hipMemcpy(h_check.data(), d_weights, bytes, hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_weights));
    return h_check == h_weights;
}

static void squareOnDevice(const float* h_in, int n) {
    const size_t bytes = n * sizeof(float);
    float* h_out = (float*)malloc(bytes);
    float *d_in = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, bytes));
    HIP_CHECK(hipMalloc(&d_out, bytes));
    HIP_CHECK(hipMemcpy(d_in, h_in, bytes, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(square, (n + 255) / 256, 256, 0, 0, d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_out, d_out, bytes, hipMemcpyHostToDevice)); // expect: memcpy-direction-mismatch
    printf("out[3] = %f\n", h_out[3]);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    free(h_out);
}

static void asyncUpload(const float* h_src, int n, hipStream_t stream) {
    float* d_dst = nullptr;
    HIP_CHECK(hipMalloc(&d_dst, n * sizeof(float)));
    HIP_CHECK(hipMemcpyAsync(d_dst, h_src, n * sizeof(float), hipMemcpyDeviceToHost, stream)); // expect: memcpy-direction-mismatch
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipFree(d_dst));
}

// the call before a constant's declaration is a statement of its own
static void squareUnchecked(const float* h_in, float* h_out, const int n)
{
    const size_t bytes = sizeof(float) * n;
    float *d_in, *d_out;
    CHECK(hipMalloc((void**)&d_in, bytes))
    CHECK(hipMalloc((void**)&d_out, bytes))
    CHECK(hipMemcpy(d_in, h_in, bytes, hipMemcpyDeviceToHost)) // expect: memcpy-direction-mismatch
    const int block_size = 128;
    const int grid_size = (n + block_size - 1) / block_size;
    hipLaunchKernelGGL(square, grid_size, block_size, 0, 0, d_in, d_out, n);
    CHECK(hipGetLastError())
    CHECK(hipMemcpy(d_out, h_out, bytes, hipMemcpyDeviceToHost)) // expect: memcpy-direction-mismatch
    const float first = h_out[0];
    printf("%f\n", first);
    CHECK(hipFree(d_in))
    CHECK(hipFree(d_out))
}

int main() {
    const int n = 2048;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(rand() % 100) / 7.0f;
    printf("round trip ok: %d\n", roundTrip(h) ? 1 : 0);
    squareOnDevice(h.data(), n);
    std::vector<float> squares(n);
    squareUnchecked(h.data(), squares.data(), n);
    hipStream_t stream;
    HIP_CHECK(hipStreamCreate(&stream));
    asyncUpload(h.data(), n, stream);
    HIP_CHECK(hipStreamDestroy(stream));
    return 0;
}
