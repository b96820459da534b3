// Clean: a radio-astronomy benchmark keeps its complex samples as `half2` and counts their bytes
// in halves, two a sample, in a local it uses for the allocation and the memset alike: the
// buffer holds exactly `ndat` samples.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "cuda_check.h"

int main() {
    const unsigned npt = 4096, niter = 8, ndim = 2;
    const unsigned ndat = npt * niter;
    const unsigned half2_size = ndat * ndim * sizeof(half);
    half2* input_h2 = nullptr;
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaMalloc((void**)&input_h2, half2_size));
    CUDA_CHECK(cudaMemsetAsync((void*)input_h2, 0, half2_size, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaFree(input_h2));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return 0;
}
