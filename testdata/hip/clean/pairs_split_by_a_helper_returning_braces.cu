// Clean: each thread takes one pair of a list of shells; a device helper splits the guarded
// pair number into the two shell numbers and returns them as a braced aggregate (quotient and
// remainder, or the triangular inverse for a symmetric pair). The split follows the guard on
// the pair number, so both members stay inside the counts the launcher passed.
#include "hip_check.h"

struct size_t2 {
    size_t x, y;
};

__device__ inline size_t2 index1to2(size_t index, bool symmetric, size_t n)
{
    if (symmetric) {
        size_t r2 = (size_t)floor((sqrt(8.0 * index + 1) - 1) / 2);
        return {index - r2 * (r2 + 1) / 2, r2};
    }
    return {index / n, index % n};
}

__global__ void pair_overlaps(double* overlap, const double* exponents, size_t bra_count,
                              size_t ket_count, size_t num_pairs)
{
    size_t id = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= num_pairs) return;
    size_t2 ab = index1to2(id, bra_count == ket_count, ket_count);
    overlap[id] = exponents[ab.x] + exponents[ab.y];
}

void overlaps(double* overlap, const double* exponents, size_t bra_count, size_t ket_count)
{
    size_t num_pairs = bra_count == ket_count ? bra_count * (bra_count + 1) / 2
                                              : bra_count * ket_count;
    size_t blocks = (num_pairs + 255) / 256;
    pair_overlaps<<<blocks, 256>>>(overlap, exponents, bra_count, ket_count, num_pairs);
    HIP_CHECK(hipGetLastError());
}
