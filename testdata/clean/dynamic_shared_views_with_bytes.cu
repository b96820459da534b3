// Clean: the same GEMV and block sums, each launch giving the block the bytes its views read:
// `kWarps * kRows` floats of partial sums, and a float per thread.
#include <cuda_fp16.h>

template <int kRows, int kWarps>
__global__ void gemv_partial_sums(const half* in, const half* weight, float* out, int k)
{
    extern __shared__ unsigned char smem[];
    float(*partials)[kRows] = reinterpret_cast<float(*)[kRows]>(smem);
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    for (int r = 0; r < kRows; ++r) {
        float sum = 0.f;
        for (int i = threadIdx.x; i < k; i += blockDim.x)
            sum += __half2float(in[r * k + i]) * __half2float(weight[blockIdx.x * k + i]);
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffff, sum, offset);
        if (lane == 0) partials[warp][r] = sum;
    }
    __syncthreads();
    if (threadIdx.x < kRows) {
        float acc = 0.f;
        for (int w = 0; w < kWarps; ++w) acc += partials[w][threadIdx.x];
        out[threadIdx.x * gridDim.x + blockIdx.x] = acc;
    }
}

__global__ void block_sums(const float* in, float* out, int n)
{
    extern __shared__ unsigned char scratch[];
    float* sums = reinterpret_cast<float*>(scratch);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    sums[threadIdx.x] = i < n ? in[i] : 0.f;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.f;
        for (int t = 0; t < blockDim.x; ++t) total += sums[t];
        out[blockIdx.x] = total;
    }
}

// One slot per beam, the beam count chosen by a switch at the launch.
__global__ void keep_beams(const int* ids, int* kept, int beams)
{
    extern __shared__ int slots[];
    if (threadIdx.x == 0) {
        for (int b = 0; b < beams; ++b) slots[b] = ids[blockIdx.x * beams + b];
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int b = 0; b < beams; ++b) kept[blockIdx.x * beams + b] = slots[beams - 1 - b];
    }
}

void run(const half* in, const half* weight, float* out, const float* values, float* sums,
         int m, int n, int k, const int* ids, int* kept, int beam_width,
         cudaStream_t stream)
{
    switch (m) {
    case 1:
        gemv_partial_sums<1, 4><<<n, 128, 4 * 1 * sizeof(float), stream>>>(in, weight, out, k);
        break;
    case 2:
        gemv_partial_sums<2, 4><<<n, 128, 4 * 2 * sizeof(float), stream>>>(in, weight, out, k);
        break;
    }
    block_sums<<<(k + 255) / 256, 256, 256 * sizeof(float), stream>>>(values, sums, k);
    switch (beam_width) {
    case 4:
        keep_beams<<<n, 32, 4 * sizeof(int), stream>>>(ids, kept, beam_width);
        break;
    case 8:
        keep_beams<<<n, 32, 8 * sizeof(int), stream>>>(ids, kept, beam_width);
        break;
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return;
}
