// A radar processing step that hands each scratch buffer to a cleanup guard right after
// allocating it: a `std::unique_ptr` alias whose deleter calls cudaFree, named through its
// namespace. The guard owns the buffer and frees it on every way out of the function.
#include <cstdio>
#include <memory>
#include "cuda_check.h"

namespace radar {
struct CudaFreeDeleter {
    void operator()(void* p) const { (void)cudaFree(p); }
};
using CudaCleanup = std::unique_ptr<void, CudaFreeDeleter>;
}  // namespace radar

__global__ void apply_chirp(float* data, const float* chirp, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= chirp[i];
}

void range_compress(float* d_data, const float* h_chirp, int n) {
    float* d_chirp;
    CUDA_CHECK(cudaMalloc(&d_chirp, n * sizeof(float)));
    radar::CudaCleanup chirp_cleanup(d_chirp);
    CUDA_CHECK(cudaMemcpy(d_chirp, h_chirp, n * sizeof(float), cudaMemcpyHostToDevice));
    apply_chirp<<<(n + 255) / 256, 256>>>(d_data, d_chirp, n);
    CUDA_CHECK(cudaGetLastError());
}
