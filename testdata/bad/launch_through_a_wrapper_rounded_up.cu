// Bad: the kernel is launched through a wrapper that is handed it; the call rounds the grid up
// to whole blocks of 256, and the kernel never tests its index against `n`: the last block's
// threads past `n` read and write past both buffers.
#include <cuda_runtime.h>

template<typename K, typename... A>
cudaError_t launch(K k, dim3 grid, dim3 block, A... a)
{
    k<<<grid, block>>>(a...);
    return cudaGetLastError();
}

__global__ void saxpy(float* y, const float* x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i]; // expect: unguarded-thread-index
}

bool run(float* y, const float* x, float a, int n)
{
    return launch(saxpy, dim3((n + 255) / 256), dim3(256), y, x, a, n) == cudaSuccess;
}
