// The launchers of a project whose callers live in main.cu. `launch_saxpy`'s callers check
// after calling it; `launch_clear`'s only caller checks later, after other calls, which still
// reads its launch's error (a launch error stays the last error until something reads it).
#include "kernels.h"

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void clear(float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.0f;
}

void launch_saxpy(float a, const float* x, float* y, int n, cudaStream_t stream) {
    saxpy<<<(n + 255) / 256, 256, 0, stream>>>(a, x, y, n);
}

void launch_clear(float* y, int n, cudaStream_t stream) {
    clear<<<(n + 255) / 256, 256, 0, stream>>>(y, n);
}
