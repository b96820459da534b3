// A radar processing step that hands each scratch buffer to a cleanup guard right after
// allocating it: a `std::unique_ptr` alias whose deleter calls hipFree, named through its
// namespace. The guard owns the buffer and frees it on every way out of the function.
#include <cstdio>
#include <memory>
#include "hip_check.h"

namespace radar {
struct CudaFreeDeleter {
    void operator()(void* p) const { (void)hipFree(p); }
};
using CudaCleanup = std::unique_ptr<void, CudaFreeDeleter>;
}  // namespace radar

__global__ void apply_chirp(float* data, const float* chirp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= chirp[i];
}

void range_compress(float* d_data, const float* h_chirp, int n) {
    float* d_chirp;
    HIP_CHECK(hipMalloc(&d_chirp, n * sizeof(float)));
    radar::CudaCleanup chirp_cleanup(d_chirp);
    HIP_CHECK(hipMemcpy(d_chirp, h_chirp, n * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(apply_chirp, (n + 255) / 256, 256, 0, 0, d_data, d_chirp, n);
    HIP_CHECK(hipGetLastError());
}
