// Clean: a radio-astronomy benchmark keeps its complex samples as `half2` and counts their bytes
// in halves, two a sample, in a local it uses for the allocation and the memset alike: the
// buffer holds exactly `ndat` samples.
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#include "hip_check.h"

int main() {
    const unsigned npt = 4096, niter = 8, ndim = 2;
    const unsigned ndat = npt * niter;
    const unsigned half2_size = ndat * ndim * sizeof(half);
    half2* input_h2 = nullptr;
    hipStream_t stream;
    HIP_CHECK(hipStreamCreate(&stream));
    HIP_CHECK(hipMalloc((void**)&input_h2, half2_size));
    HIP_CHECK(hipMemsetAsync((void*)input_h2, 0, half2_size, stream));
    HIP_CHECK(hipStreamSynchronize(stream));
    HIP_CHECK(hipFree(input_h2));
    HIP_CHECK(hipStreamDestroy(stream));
    return 0;
}
