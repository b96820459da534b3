// Bad: the same backward pass of a CTC-style lattice, started one state too high:
// `j = L - blockDim.x + threadIdx.x + 1` reaches `L` in the block's last thread, so the last
// sequence of the last step reads one element past the end of `beta`.
// The kernel is loaded and launched from Python, one block per sequence: no launch is in sight.
#include "cuda_check.h"

__global__ void lattice_backward(float* beta, const float* stay_scores, int T, int N, int L) {
    int bx = blockIdx.x, tx = threadIdx.x;
    for (int t = T; t > 0; t--) {
        for (int j = L - blockDim.x + tx + 1; j >= 0; j -= blockDim.x) {
            float stayed = beta[(t * N + bx) * L + j] + stay_scores[((t - 1) * N + bx) * L + j]; // expect: unguarded-thread-index, unguarded-thread-index
            beta[((t - 1) * N + bx) * L + j] = stayed;
        }
        __syncthreads();
    }
}

