// Clean: a layer norm that stages one row per block in dynamic shared memory. The loop walks the
// row's global positions (`row_start + threadIdx.x` up to `row_start + width`) and the staging
// buffer is indexed by the position less the row's start, so each block uses `width` floats:
// what its launch gives.
#include <cuda_runtime.h>

template <typename T>
__global__ void residualLayerNorm(const T* input, const T* residual, const float* gamma,
                                  const float* beta, T* output, int width, float epsilon) {
    extern __shared__ float row_values[];
    int row_start = blockIdx.x * width;
    int first = row_start + threadIdx.x;
    int last = row_start + width;

    float local_sum = 0.0f;
    for (int i = first; i < last; i += blockDim.x) {
        float v = static_cast<float>(input[i]) + static_cast<float>(residual[i]);
        row_values[i - row_start] = v;
        local_sum += v;
    }
    __shared__ float mean;
    __shared__ float inv_std;
    __shared__ float partial[32];
    for (int offset = 16; offset > 0; offset /= 2)
        local_sum += __shfl_down_sync(0xffffffff, local_sum, offset);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = local_sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < (blockDim.x + 31) / 32; ++w) total += partial[w];
        mean = total / width;
    }
    __syncthreads();

    float local_var = 0.0f;
    for (int i = first; i < last; i += blockDim.x) {
        float d = row_values[i - row_start] - mean;
        local_var += d * d;
    }
    for (int offset = 16; offset > 0; offset /= 2)
        local_var += __shfl_down_sync(0xffffffff, local_var, offset);
    __syncthreads();
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = local_var;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < (blockDim.x + 31) / 32; ++w) total += partial[w];
        inv_std = rsqrtf(total / width + epsilon);
    }
    __syncthreads();

    for (int i = first; i < last; i += blockDim.x) {
        int column = i - row_start;
        float normed = (row_values[column] - mean) * inv_std;
        output[i] = static_cast<T>(normed * gamma[column] + beta[column]);
    }
}

template <typename T>
void launchResidualLayerNorm(const T* input, const T* residual, const float* gamma,
                             const float* beta, T* output, int rows, int width,
                             int threads, cudaStream_t stream) {
    residualLayerNorm<T><<<rows, threads, width * sizeof(float), stream>>>(
        input, residual, gamma, beta, output, width, 1e-5f);
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) throw status;
}

template void launchResidualLayerNorm<float>(const float*, const float*, const float*,
                                             const float*, float*, int, int, int, cudaStream_t);
