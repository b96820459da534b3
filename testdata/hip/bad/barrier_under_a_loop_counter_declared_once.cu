// Bad: the window loop reuses the counter the clearing loop declared (one `j` for the whole
// kernel), so after the clearing loop each thread's `j` is past `cols` by its own lane, and the
// window start taken from it differs between threads: only some of them reach the barrier.
#include <hip/hip_runtime.h>

__global__ void medianHistogram(int* hist, int* out, int rows, int cols, int r, int start) {
    int j;
    for (j = threadIdx.x; j < cols; j += blockDim.x) {
        hist[blockIdx.x * cols + j] = 0;
    }
    __syncthreads();
    for (int i = 0; i < rows; i++) {
        int loopIndex = j - r;
        if (loopIndex < start + r) {
            if (threadIdx.x == 0) hist[blockIdx.x * cols + loopIndex % cols] += i;
            __syncthreads(); // expect: divergent-barrier
        }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = hist[blockIdx.x * cols];
}

int main() {
    const int parts = 4, rows = 8, cols = 64, r = 2;
    int* hist = nullptr;
    int* out = nullptr;
    if (hipMalloc(&hist, sizeof(int) * parts * cols) != hipSuccess) return 1;
    if (hipMalloc(&out, sizeof(int) * parts) != hipSuccess) return 1;
    medianHistogram<<<parts, 32>>>(hist, out, rows, cols, r, 0);
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    if (hipFree(out) != hipSuccess || hipFree(hist) != hipSuccess) return 1;
    return 0;
}
