// Clean: #define constants for sizes and bounds, #if/#else selected types and code paths.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define N 1024
#define THREADS_PER_BLOCK 256
#define USE_FAST_MATH 1

#ifdef USE_DOUBLE
typedef double real_t;
#else
typedef float real_t;
#endif

#define HIP_CHECK(call)                                                      \
    do {                                                                      \
        hipError_t err_ = (call);                                            \
        if (err_ != hipSuccess) {                                            \
            fprintf(stderr, "CUDA error '%s' at %s:%d\n",                     \
                    hipGetErrorString(err_), __FILE__, __LINE__);            \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

__global__ void sigmoid(const real_t* in, real_t* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
#if USE_FAST_MATH
        out[i] = 1.0f / (1.0f + __expf(-static_cast<float>(in[i])));
#else
        out[i] = 1.0 / (1.0 + exp(-in[i]));
#endif
    }
}

__global__ void square(real_t* data) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    data[i] = data[i] * data[i];
}

int main() {
    real_t h_in[N];
    real_t h_out[N];
    for (int i = 0; i < N; ++i) {
        h_in[i] = static_cast<real_t>((i % 21) - 10) / 2;
    }

    real_t* d_in = nullptr;
    real_t* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, N * sizeof(real_t)));
    HIP_CHECK(hipMalloc(&d_out, N * sizeof(real_t)));
    HIP_CHECK(hipMemcpy(d_in, h_in, N * sizeof(real_t), hipMemcpyHostToDevice));

#if THREADS_PER_BLOCK > 128
    sigmoid<<<N / THREADS_PER_BLOCK, THREADS_PER_BLOCK>>>(d_in, d_out);
    HIP_CHECK(hipGetLastError());
#else
    sigmoid<<<(N + 127) / 128, 128>>>(d_in, d_out);
    HIP_CHECK(hipGetLastError());
#endif

    square<<<(N + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, THREADS_PER_BLOCK>>>(d_out);
    HIP_CHECK(hipGetLastError());

#ifdef DEBUG_SYNC
    HIP_CHECK(hipDeviceSynchronize());
#endif

    HIP_CHECK(hipMemcpy(h_out, d_out, N * sizeof(real_t), hipMemcpyDeviceToHost));
    printf("out[0] = %f, out[N-1] = %f\n", static_cast<double>(h_out[0]), static_cast<double>(h_out[N - 1]));

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    return 0;
}
