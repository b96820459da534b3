// Bad: a conjugate-gradient port in the style of NAS Parallel Benchmarks. The problem class
// comes from a header the build generates (here defined in place, as the build would); the
// setup function sets the grid once to `NA` rounded up to whole blocks of 128, so the last
// block runs threads past the `NA` rows, and the kernel tests nothing.
#define NA 1400
#include "cuda_check.h"

int blocks_per_grid_on_scale;

__global__ void scaleRows(double* x, double factor) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    x[j] *= factor;  // expect: unguarded-thread-index
}

void setup() {
    blocks_per_grid_on_scale = (NA + 127) / 128;
}

void scale(double* x) {
    scaleRows<<<blocks_per_grid_on_scale, 128>>>(x, 0.5);
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    setup();
    double* x;
    CUDA_CHECK(cudaMalloc(&x, NA * sizeof(double)));
    CUDA_CHECK(cudaMemset(x, 0, NA * sizeof(double)));
    scale(x);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(x));
    return 0;
}
