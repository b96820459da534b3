// Clean: two kernels share a name. The one that keeps per-problem row offsets in dynamic shared
// memory is launched through a local holding one of its two specialisations, with the bytes it
// reads; the launches that give no bytes pass five arguments and are the other overload's.
#include <cstdint>
#include <hip/hip_runtime.h>

template <typename In, typename Out>
__global__ void scale_rows(Out* out, float* scales, const In* in, int cols, int rows)
{
    int row = blockIdx.x;
    if (row >= rows) return;
    float largest = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        largest = fmaxf(largest, fabsf(float(in[(int64_t)row * cols + c])));
    if (threadIdx.x == 0) scales[row] = largest;
}

template <bool BinarySearch, typename In, typename Out>
__global__ void scale_rows(Out* out, float* scales, const In* in, const int64_t* offsets,
                           int problems, int cols, int64_t leading, uint32_t mul, uint32_t shr)
{
    extern __shared__ char smem[];
    int64_t* ends = reinterpret_cast<int64_t*>(smem);
    for (int p = threadIdx.x; p < problems; p += blockDim.x) ends[p] = offsets[p + 1];
    __syncthreads();
    if (threadIdx.x == 0) scales[blockIdx.x] = float(ends[problems - 1] * leading + (mul >> shr));
}

void quantize(float* out, float* scales, const float* in, const int64_t* offsets, int problems,
              int cols, int rows, bool binary, hipStream_t stream)
{
    hipLaunchKernelGGL(scale_rows, rows, 256, 0, stream, out, scales, in, cols, rows);
    int bytes = problems * sizeof(int64_t);
    auto kernel = binary ? scale_rows<true, float, float> : scale_rows<false, float, float>;
    if (hipFuncSetAttribute(kernel, hipFuncAttributeMaxDynamicSharedMemorySize, bytes) != hipSuccess)
        return;
    hipLaunchKernelGGL(kernel, 132, 256, bytes, stream, out, scales, in, offsets, problems, cols, rows, 1u, 0u);
    if (hipGetLastError() != hipSuccess) return;
}
