// Bad: one block per row of `C` elements in a kernel given no extent at run time, but the
// launcher rounds the grid up over the elements in blocks of 256 rather than giving one block
// per row: the blocks past the last row read and write past the end of the buffers.
#include <hip/hip_runtime.h>
#include <cstdlib>

template <typename T, int C, int TPB>
__global__ void add_rows(const T* input, const T* bias, T* output)
{
    int base = blockIdx.x * C + threadIdx.x;
    int b = threadIdx.x;
#pragma unroll
    for (int i = 0; i < C / TPB; ++i) {
        output[base] = input[base] + bias[b]; // expect: unguarded-thread-index
        base += TPB;
        b += TPB;
    }
}

int main(int argc, char** argv)
{
    const int rows = argc > 1 ? atoi(argv[1]) : 10;
    const int C = 640;
    float* d_in = nullptr;
    float* d_bias = nullptr;
    float* d_out = nullptr;
    if (hipMalloc(&d_in, rows * C * sizeof(float)) != hipSuccess) return 1;
    if (hipMalloc(&d_bias, C * sizeof(float)) != hipSuccess) return 1;
    if (hipMalloc(&d_out, rows * C * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(d_in, 0, rows * C * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(d_bias, 0, C * sizeof(float)) != hipSuccess) return 1;
    add_rows<float, 640, 320><<<(rows * C + 255) / 256, 320>>>(d_in, d_bias, d_out);
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    hipFree(d_in);
    hipFree(d_bias);
    hipFree(d_out);
    return 0;
}
