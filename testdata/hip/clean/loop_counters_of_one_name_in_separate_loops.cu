// Clean: a median filter clears its histogram with a block-strided loop whose counter `j` starts
// at the thread, then slides a window with a later loop that declares a `j` of its own from a
// uniform offset (opencv_contrib's median filter). The later `j`, and the window start computed
// from it, are the same in every thread, so the barrier in the window's branch is reached by the
// whole block.
#include <hip/hip_runtime.h>
#include "hip_check.h"

__global__ void medianHistogram(int* hist, int* out, int rows, int cols, int r, int start, int init) {
    if (init) {
        for (int j = threadIdx.x; j < cols; j += blockDim.x) {
            hist[blockIdx.x * cols + j] = 0;
        }
    }
    __syncthreads();
    for (int i = 0; i < rows; i++) {
        for (int j = r; j < cols - r; j++) {
            int loopIndex = start;
            if (loopIndex <= j - r) {
                for (loopIndex = j - r; loopIndex < min(j + r + 1, cols); loopIndex++) {
                    if (threadIdx.x == 0) hist[blockIdx.x * cols + loopIndex] += 1;
                }
            } else {
                for (; loopIndex < j + r + 1; loopIndex++) {
                    if (threadIdx.x == 0) hist[blockIdx.x * cols + loopIndex % cols] += i;
                    __syncthreads();
                }
            }
        }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = hist[blockIdx.x * cols];
}

int main() {
    const int parts = 4, rows = 8, cols = 64, r = 2;
    int* hist = nullptr;
    int* out = nullptr;
    HIP_CHECK(hipMalloc(&hist, sizeof(int) * parts * cols));
    HIP_CHECK(hipMalloc(&out, sizeof(int) * parts));
    hipLaunchKernelGGL(medianHistogram, parts, 32, 0, 0, hist, out, rows, cols, r, 0, 1);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(hist));
    return 0;
}
