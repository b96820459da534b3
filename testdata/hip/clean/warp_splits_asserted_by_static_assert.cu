// Clean: a warp-specialised kernel splits its block into a producer group and math warps at a
// thread count the kernel asserts is a multiple of 128, or pins to 256 (directly, or through a
// project's assert macro, with `and`): each side of the split holds whole warps, so the shuffles
// see every lane.
#include <hip/hip_runtime.h>

#define KERNEL_STATIC_ASSERT(cond, reason) static_assert(cond, reason)

template <unsigned kNumTMAThreads, unsigned kNumMathThreads>
__global__ void __launch_bounds__(kNumTMAThreads + kNumMathThreads, 1) mqa_logits(float* out)
{
    KERNEL_STATIC_ASSERT(kNumTMAThreads == 128 and kNumMathThreads % 128 == 0, "Invalid threads");
    if (threadIdx.x >= kNumMathThreads) {
        if (threadIdx.x == kNumMathThreads) out[0] = 1.0f;
    } else {
        const unsigned thread = threadIdx.x % kNumMathThreads;
        const unsigned warp = __shfl_sync(0xffffffff, thread / 32, 0);
        out[1 + warp] = 0.0f;
    }
}

template <unsigned kProducers, unsigned kConsumers>
__global__ void pipeline(float* out)
{
    static_assert(kConsumers % 64 == 0, "consumers come in pairs of warps");
    if (threadIdx.x < kConsumers) {
        float v = out[threadIdx.x];
        v += __shfl_xor_sync(0xffffffff, v, 1);
        out[threadIdx.x] = v;
    }
}

template <unsigned kNumTMAThreads, unsigned kNumMathThreads>
__global__ void __launch_bounds__(kNumTMAThreads + kNumMathThreads, 1) paged_logits(float* out)
{
    KERNEL_STATIC_ASSERT(kNumTMAThreads == 128 and kNumMathThreads == 256, "Expected 256 math threads");
    if (threadIdx.x >= kNumMathThreads) {
        return;
    } else {
        const unsigned warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
        out[blockIdx.x * 8 + warp] = 1.0f;
    }
}

void launch(float* out, hipStream_t stream)
{
    hipLaunchKernelGGL(HIP_KERNEL_NAME(mqa_logits<128, 512>), 1, 640, 0, stream, out);
    hipLaunchKernelGGL(HIP_KERNEL_NAME(pipeline<32, 128>), 1, 160, 0, stream, out);
    if (hipGetLastError() != hipSuccess) return;
}
