// cudalint demo: warp-synchronous-without-sync (bad). The unrolled last-warp reduction relies on lanes running in lockstep.
#include <cstdio>
#include <cstdlib>
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

#define BLOCK 64

// The last 64 partial sums are folded by the first warp without any synchronisation.
__global__ void blockSum(const float* in, float* out) {
    volatile __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    if (tid < 32) {
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16]; // expect: warp-synchronous-without-sync
        s[tid] += s[tid + 8];
        s[tid] += s[tid + 4];
        s[tid] += s[tid + 2];
        s[tid] += s[tid + 1];
    }
    if (tid == 0) {
        out[blockIdx.x] = s[0];
    }
}

int main() {
    const int blocks = 64;
    const int n = blocks * BLOCK;
    float* h_in = (float*)malloc(n * sizeof(float));
    float* h_out = (float*)malloc(blocks * sizeof(float));
    double expected = 0.0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(i % 5);
        expected += h_in[i];
    }
    float* d_in = nullptr;
    float* d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, blocks * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in, n * sizeof(float), hipMemcpyHostToDevice));
    blockSum<<<blocks, BLOCK>>>(d_in, d_out);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(h_out, d_out, blocks * sizeof(float), hipMemcpyDeviceToHost));
    double total = 0.0;
    for (int b = 0; b < blocks; ++b) {
        total += h_out[b];
    }
    printf("gpu sum = %f, cpu sum = %f\n", total, expected);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    free(h_in);
    free(h_out);
    return 0;
}
