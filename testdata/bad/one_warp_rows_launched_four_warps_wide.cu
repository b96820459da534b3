// Bad: the loops step by 32, one warp per row, but the launch gives each row 128 threads:
// threads 0 and 32 both start at their own element and step onto each other's, writing the
// same shared slot with no barrier between them.
#include "cuda_check.h"

__global__ void row_softmax(const float* logits, float* out, int n) {
    extern __shared__ float probs[];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    for (int i = tid; i < n; i += 32) {
        probs[i] = logits[row * n + i]; // expect: shared-memory-race
    }
    __syncthreads();
    for (int i = tid; i < n; i += 32) {
        out[row * n + i] = probs[i];
    }
}

void softmax_rows(const float* logits, float* out, int rows, int n) {
    row_softmax<<<rows, 128, n * sizeof(float)>>>(logits, out, n);
    CUDA_CHECK(cudaGetLastError());
}
