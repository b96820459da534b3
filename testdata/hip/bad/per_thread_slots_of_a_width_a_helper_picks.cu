// Bad: the block width is picked at run time by a helper, but the per-thread result buffer is
// sized for the width of another call of the helper (half the input), so the launch with the
// wider blocks writes past its end.
#include <hip/hip_runtime.h>
#include "hip_check.h"

unsigned threadsFor(unsigned long long points) {
    const unsigned long long fitted = 32 + points / 20000;
    return fitted > 1024 ? 1024 : (unsigned)(fitted / 32 * 32);
}

__global__ void countNonZero(const int* in, unsigned long long n, unsigned long long* count) {
    const unsigned long long chunk = n / (gridDim.x * blockDim.x) + 1;
    const unsigned long long id = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long c = 0;
    for (unsigned long long i = id * chunk; i < (id + 1) * chunk && i < n; ++i) c += in[i] != 0;
    count[id] = c; // expect: unguarded-thread-index
}

void countAll(const int* d_in, unsigned long long n, unsigned blocks, unsigned long long* h_count) {
    const unsigned half = threadsFor(n / 2);
    const unsigned threads = threadsFor(n);
    unsigned long long* d_count;
    HIP_CHECK(hipMalloc(&d_count, blocks * half * sizeof(unsigned long long)));
    countNonZero<<<blocks, threads>>>(d_in, n, d_count);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(h_count, d_count, blocks * half * sizeof(unsigned long long),
                          hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_count));
}
