// Bad: the flat offset steps before the read and the row after it, so the read is a whole stride
// of rows ahead of the row tested: the tests of the row and the channel say nothing of it, and
// the threads of the last rows read past the input.
#include <hip/hip_runtime.h>

template <typename T, int PARALLEL_LOADS>
__global__ void welford_channels_last(const T* __restrict__ input, float* out_mean,
                                      int reduction_size, int stride)
{
    float sum[PARALLEL_LOADS] = {};
    int inner_loop_stride = blockDim.y * gridDim.y;
    int m_offset = blockIdx.y * blockDim.y + threadIdx.y;
    int c_offset = blockIdx.x * blockDim.x + threadIdx.x;
    int loop_count = 1 + (reduction_size - 1) / (inner_loop_stride * PARALLEL_LOADS);
    int address_base = m_offset * stride + c_offset;
    int address_increment = inner_loop_stride * stride;
    for (int i = 0; i < loop_count; i++) {
#pragma unroll
        for (int j = 0; j < PARALLEL_LOADS; j++) {
            address_base += address_increment;
            if (c_offset < stride && m_offset < reduction_size) {
                sum[j] += static_cast<float>(input[address_base]); // expect: unguarded-thread-index
            }
            m_offset += inner_loop_stride;
        }
    }
    if (c_offset < stride && threadIdx.y == 0) {
        out_mean[c_offset] = sum[0] / reduction_size;
    }
}

void reduce(const float* input, float* mean, int rows, int channels, hipStream_t stream)
{
    dim3 block(32, 8);
    dim3 grid((channels + 31) / 32, 16);
    welford_channels_last<float, 4><<<grid, block, 0, stream>>>(input, mean, rows, channels);
    if (hipGetLastError() != hipSuccess) return;
}
