// Clean: kernels launched with `hipLaunchKernelEx` and a `hipLaunchConfig_t`: one block per
// channel pair with the block of the template's size (its initialiser), and a grid rounded down
// to whole blocks (its fields): every thread of every launch indexes inside the buffers.
#include <hip/hip_runtime.h>

template <int kRanks, int kThreads>
__global__ void __launch_bounds__(kThreads, 1) send_offsets(const int* prefix, int* out)
{
    const int num_channels = gridDim.x / 2;
    const int rank = threadIdx.x / (kThreads / kRanks);
    const int channel = blockIdx.x / 2;
    if (blockIdx.x % 2 == 0 && threadIdx.x % (kThreads / kRanks) == 0)
        out[rank * num_channels + channel] = prefix[rank * num_channels + channel];
}

__global__ void scale_whole_blocks(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
}

hipError_t dispatch(const int* prefix, int* out, float* y, const float* x, int num_sms,
                     int ranks, int n, hipStream_t stream)
{
    constexpr int kThreads = 768;
    hipLaunchConfig_t config = {(unsigned)num_sms, kThreads, 0, stream, nullptr, 0};
    switch (ranks) {
    case 2: {
        auto kernel = send_offsets<2, kThreads>;
        if (hipLaunchKernelEx(&config, kernel, prefix, out) != hipSuccess) return hipErrorUnknown;
    } break;
    case 8: {
        auto kernel = send_offsets<8, kThreads>;
        if (hipLaunchKernelEx(&config, kernel, prefix, out) != hipSuccess) return hipErrorUnknown;
    } break;
    }
    hipLaunchConfig_t whole = {};
    whole.gridDim = dim3(n / 256);
    whole.blockDim = dim3(256);
    whole.stream = stream;
    return hipLaunchKernelEx(&whole, scale_whole_blocks, y, x, n);
}
