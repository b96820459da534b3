// Clean: the backward pass of a CTC-style lattice. Each block owns one sequence and walks its
// states from the top down, `j = L - blockDim.x + threadIdx.x` and then one block lower each
// trip: `threadIdx.x` is below `blockDim.x`, so `j` starts at most at `L - 1`, only falls, and the
// loop stops at 0. Every access stays inside the sequence's row of `L` states.
// The kernel is loaded and launched from Python, one block per sequence: no launch is in sight.
#include "hip_check.h"

__global__ void lattice_backward(float* beta, const float* stay_scores, const float* move_scores,
                                 int T, int N, int L) {
    int bx = blockIdx.x, tx = threadIdx.x;
    for (int t = T; t > 0; t--) {
        for (int j = L - blockDim.x + tx; j >= 0; j -= blockDim.x) {
            float moved = 0.0f;
            if (j < L - 1) moved = beta[(t * N + bx) * L + j + 1] + move_scores[((t - 1) * N + bx) * (L - 1) + j];
            float stayed = beta[(t * N + bx) * L + j] + stay_scores[((t - 1) * N + bx) * L + j];
            beta[((t - 1) * N + bx) * L + j] = fmaxf(stayed, moved);
        }
        __syncthreads();
    }
}

