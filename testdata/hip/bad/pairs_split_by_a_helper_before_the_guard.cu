// Bad: the thread's pair number is split into two shell numbers by a device helper that
// returns them as a braced aggregate, and no test bounds the pair number first. The grid is
// rounded up to whole blocks, so the threads past the last pair read a bra shell past the end
// and write a sum past the end.
#include "hip_check.h"

struct size_t2 {
    size_t x, y;
};

__device__ inline size_t2 index1to2(size_t index, size_t n)
{
    return {index / n, index % n};
}

__global__ void pair_sums(double* sums, const double* bra, size_t ket_count)
{
    size_t id = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t2 ab = index1to2(id, ket_count);
    double b = bra[ab.x]; // expect: unguarded-thread-index
    sums[id] = b * (double)(ab.y + 1); // expect: unguarded-thread-index
}

void pairs(double* sums, const double* bra, size_t bra_count, size_t ket_count)
{
    size_t num_pairs = bra_count * ket_count;
    hipLaunchKernelGGL(pair_sums, (num_pairs + 255) / 256, 256, 0, 0, sums, bra, ket_count);
    HIP_CHECK(hipGetLastError());
}
