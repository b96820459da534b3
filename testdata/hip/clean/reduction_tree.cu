// Clean: shared-memory tree reduction (barrier outside `if (tid < s)`), per-block partial[blockIdx.x] outputs, warp shuffles.
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

constexpr int kBlockSize = 256;

__device__ float warpReduceSum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

__global__ void reduceSum(const float* in, float* partial, int n) {
    __shared__ float sdata[kBlockSize];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid < 32) {
        float v = sdata[tid] + sdata[tid + 32];
        v = warpReduceSum(v);
        if (tid == 0) {
            partial[blockIdx.x] = v;
        }
    }
}

__global__ void reduceMaxGridStride(const float* in, float* blockMax, int n) {
    __shared__ float smax[kBlockSize];
    float m = -3.402823466e38f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        m = fmaxf(m, in[i]);
    }
    smax[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            smax[threadIdx.x] = fmaxf(smax[threadIdx.x], smax[threadIdx.x + s]);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        blockMax[blockIdx.x] = smax[0];
    }
}

int main() {
    const int n = 1 << 22;
    const int blocks = (n + kBlockSize - 1) / kBlockSize;
    std::vector<float> h_in(n);
    double expected = 0.0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = static_cast<float>(rand() % 100) / 100.0f;
        expected += h_in[i];
    }

    float* d_in = nullptr;
    float* d_partial = nullptr;
    float* d_total = nullptr;
    float* d_blockMax = nullptr;
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_partial, blocks * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_total, sizeof(float)));
    HIP_CHECK(hipMalloc(&d_blockMax, 120 * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, h_in.data(), n * sizeof(float), hipMemcpyHostToDevice));

    reduceSum<<<blocks, kBlockSize>>>(d_in, d_partial, n);
    HIP_CHECK(hipGetLastError());

    // Second pass over the per-block partial sums (one block, guarded loads).
    std::vector<float> h_partial(blocks);
    HIP_CHECK(hipMemcpy(h_partial.data(), d_partial, blocks * sizeof(float), hipMemcpyDeviceToHost));
    double total = 0.0;
    for (int b = 0; b < blocks; ++b) {
        total += h_partial[b];
    }

    reduceMaxGridStride<<<120, kBlockSize>>>(d_in, d_blockMax, n);
    HIP_CHECK(hipGetLastError());
    std::vector<float> h_blockMax(120);
    HIP_CHECK(hipMemcpy(h_blockMax.data(), d_blockMax, 120 * sizeof(float), hipMemcpyDeviceToHost));

    printf("sum gpu=%f cpu=%f max[0]=%f\n", total, expected, h_blockMax[0]);

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_partial));
    HIP_CHECK(hipFree(d_total));
    HIP_CHECK(hipFree(d_blockMax));
    return 0;
}
