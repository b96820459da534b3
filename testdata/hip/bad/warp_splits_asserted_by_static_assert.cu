// Bad: the assert makes the math threads only a multiple of 16, and the launch gives 48: the
// split leaves lanes 16-31 of the second warp on the producer side while the math side's
// shuffle names the whole warp.
#include <hip/hip_runtime.h>

template <unsigned kNumTMAThreads, unsigned kNumMathThreads>
__global__ void __launch_bounds__(kNumTMAThreads + kNumMathThreads, 1) mqa_logits(float* out)
{
    static_assert(kNumTMAThreads == 128 && kNumMathThreads % 16 == 0, "Invalid threads");
    if (threadIdx.x >= kNumMathThreads) {
        if (threadIdx.x == kNumMathThreads) out[0] = 1.0f;
    } else {
        const unsigned thread = threadIdx.x % kNumMathThreads;
        const unsigned warp = __shfl_sync(0xffffffff, thread / 32, 0); // expect: partial-warp-shuffle
        out[1 + warp] = 0.0f;
    }
}

void launch(float* out, hipStream_t stream)
{
    mqa_logits<128, 48><<<1, 176, 0, stream>>>(out);
    if (hipGetLastError() != hipSuccess) return;
}
