// Bad: a conjugate-gradient port in the style of NAS Parallel Benchmarks. The problem class
// comes from a header the build generates (here defined in place, as the build would); the
// setup function sets the grid once to `NA` rounded up to whole blocks of 128, so the last
// block runs threads past the `NA` rows, and the kernel tests nothing.
#define NA 1400
#include "hip_check.h"

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
    HIP_CHECK(hipGetLastError());
}

int main() {
    setup();
    double* x;
    HIP_CHECK(hipMalloc(&x, NA * sizeof(double)));
    HIP_CHECK(hipMemset(x, 0, NA * sizeof(double)));
    scale(x);
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(x));
    return 0;
}
