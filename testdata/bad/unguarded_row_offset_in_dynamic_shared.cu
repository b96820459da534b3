// Bad: a softmax that stages one row per block in dynamic shared memory but indexes the staging
// buffer with the row's global position instead of the position less the row's start: the
// launch gives each block `width` floats, and every block after the first writes past them.
#include <cuda_runtime.h>

__global__ void rowSoftmax(const float* logits, float* probs, int width) {
    extern __shared__ float staged[];
    int row_start = blockIdx.x * width;
    int first = row_start + threadIdx.x;
    int last = row_start + width;

    __shared__ float row_max;
    __shared__ float row_sum;
    for (int i = first; i < last; i += blockDim.x)
        staged[i] = logits[i]; // expect: unguarded-thread-index
    __syncthreads();
    if (threadIdx.x == 0) {
        float m = -INFINITY;
        for (int c = 0; c < width; ++c) m = fmaxf(m, staged[c]);
        row_max = m;
    }
    __syncthreads();
    for (int i = first; i < last; i += blockDim.x)
        staged[i - row_start] = __expf(staged[i - row_start] - row_max);
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int c = 0; c < width; ++c) s += staged[c];
        row_sum = s;
    }
    __syncthreads();
    for (int i = first; i < last; i += blockDim.x) probs[i] = staged[i - row_start] / row_sum;
}

void softmaxRows(const float* dLogits, float* dProbs, int rows, int width, cudaStream_t stream) {
    rowSoftmax<<<rows, 256, width * sizeof(float), stream>>>(dLogits, dProbs, width);
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) throw status;
}
