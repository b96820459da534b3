// Clean: one block per row of `C` elements, the row width and the block size template
// arguments, and the kernel given no extent at run time (only pointers): the launcher's grid
// (a parameter its caller sets to the number of rows) is the kernel's only contract, and no
// launch rounds it up.
#include <cuda_runtime.h>

template <typename T, int C, int TPB>
__global__ void add_rows(const T* input, const T* bias, T* output)
{
    int base = blockIdx.x * C + threadIdx.x;
    int b = threadIdx.x;
#pragma unroll
    for (int i = 0; i < C / TPB; ++i) {
        output[base] = input[base] + bias[b];
        base += TPB;
        b += TPB;
    }
}

int launch_add_rows(const float* in, const float* bias, float* out, int grid_size, int C,
                    cudaStream_t stream)
{
    constexpr int TPB = 320;
    switch (C) {
    case 320:
        add_rows<float, 320, TPB><<<grid_size, TPB, 0, stream>>>(in, bias, out);
        break;
    case 640:
        add_rows<float, 640, TPB><<<grid_size, TPB, 0, stream>>>(in, bias, out);
        break;
    default:
        return 1;
    }
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
