// Clean: guards written with C++'s alternative tokens (`and`, `or`, `not`), as some codebases
// do throughout: each bounds the thread's index as `&&`, `||` and `!` would.
#include <cuda_runtime.h>

__global__ void dispatch_tokens(const int* topk_idx, int* counts, int num_tokens, int num_experts)
{
    const int token = blockIdx.x * blockDim.x + threadIdx.x;
    if (token < num_tokens and topk_idx[token] >= 0) {
        atomicAdd(&counts[topk_idx[token] % num_experts], 1);
    }
    if (not (token < num_tokens)) return;
    if (token >= num_tokens or topk_idx[token] < 0) return;
    counts[num_experts + token] = topk_idx[token];
}

void dispatch(const int* topk_idx, int* counts, int num_tokens, int num_experts,
              cudaStream_t stream)
{
    dispatch_tokens<<<(num_tokens + 127) / 128, 128, 0, stream>>>(topk_idx, counts, num_tokens,
                                                                   num_experts);
    if (cudaGetLastError() != cudaSuccess) return;
}
