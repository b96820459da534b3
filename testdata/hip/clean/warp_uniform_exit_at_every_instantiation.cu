// Clean: each token owns `kThreads / TokensPerBlock` threads, and the lanes of a token past the
// end return before the shuffle. At every visible launch (4 and 1 tokens per block) a token
// owns 64 or 256 threads, whole warps, so every warp that reaches the shuffle is whole.
#include <hip/hip_runtime.h>

static constexpr int kThreads = 256;

template <int TokensPerBlock>
__global__ void post_tokens(const float* mix, float* out, long long total_tokens)
{
    constexpr int threads_per_token = kThreads / TokensPerBlock;
    const int token_slot = threadIdx.x / threads_per_token;
    const long long token = (long long)blockIdx.x * TokensPerBlock + token_slot;
    if (token >= total_tokens) return;
    const int lane = threadIdx.x % 32;
    const float c = lane < 20 ? mix[token * 20 + lane] : 0.0f;
    const float first = __shfl_sync(0xffffffffu, c, 0);
    out[token * threads_per_token + threadIdx.x % threads_per_token] = first;
}

int main()
{
    const long long tokens = 37;
    float* d_mix = nullptr;
    float* d_out = nullptr;
    if (hipMalloc(&d_mix, tokens * 20 * sizeof(float)) != hipSuccess) return 1;
    if (hipMalloc(&d_out, tokens * kThreads * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(d_mix, 0, tokens * 20 * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(HIP_KERNEL_NAME(post_tokens<4>), (unsigned)((tokens + 3) / 4), kThreads, 0, 0, d_mix, d_out, tokens);
    if (hipGetLastError() != hipSuccess) return 1;
    hipLaunchKernelGGL(HIP_KERNEL_NAME(post_tokens<1>), (unsigned)tokens, kThreads, 0, 0, d_mix, d_out, tokens);
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    hipFree(d_mix);
    hipFree(d_out);
    return 0;
}
