// Bad: the same guards with the bound tested on the wrong side of `or`: `token < num_tokens or
// ...` lets every thread through, whatever its index.
#include <hip/hip_runtime.h>

__global__ void dispatch_tokens(const int* topk_idx, int* counts, int num_tokens, int num_experts)
{
    const int token = blockIdx.x * blockDim.x + threadIdx.x;
    if (token < num_tokens or num_experts > 0) {
        atomicAdd(&counts[topk_idx[token] % num_experts], 1); // expect: unguarded-thread-index
    }
}

void dispatch(const int* topk_idx, int* counts, int num_tokens, int num_experts,
              hipStream_t stream)
{
    dispatch_tokens<<<(num_tokens + 127) / 128, 128, 0, stream>>>(topk_idx, counts, num_tokens,
                                                                   num_experts);
    if (hipGetLastError() != hipSuccess) return;
}
