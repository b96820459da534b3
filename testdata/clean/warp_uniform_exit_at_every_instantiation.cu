// Clean: each token owns `kThreads / TokensPerBlock` threads, and the lanes of a token past the
// end return before the shuffle. At every visible launch (4 and 1 tokens per block) a token
// owns 64 or 256 threads, whole warps, so every warp that reaches the shuffle is whole.
#include <cuda_runtime.h>

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
    if (cudaMalloc(&d_mix, tokens * 20 * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMalloc(&d_out, tokens * kThreads * sizeof(float)) != cudaSuccess) return 1;
    if (cudaMemset(d_mix, 0, tokens * 20 * sizeof(float)) != cudaSuccess) return 1;
    post_tokens<4><<<(unsigned)((tokens + 3) / 4), kThreads>>>(d_mix, d_out, tokens);
    if (cudaGetLastError() != cudaSuccess) return 1;
    post_tokens<1><<<(unsigned)tokens, kThreads>>>(d_mix, d_out, tokens);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    cudaFree(d_mix);
    cudaFree(d_out);
    return 0;
}
