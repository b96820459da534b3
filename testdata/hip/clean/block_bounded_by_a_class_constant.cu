// Clean: a block as wide as the input, launched only when the input fits in one warp. The
// bound is a constant of a class and of a namespace (`RadixSort::WARP_SIZE`), not a literal.
#include "hip_check.h"

namespace RadixSort {
static const unsigned WARP_SIZE = 32;
}

class Sorter {
public:
    static constexpr unsigned SMALL_LIMIT = 256;
};

__global__ void sort_small(unsigned* keys, unsigned num_elements) {
    unsigned key = keys[threadIdx.x];
    for (unsigned step = 1; step < num_elements; ++step) {
        key ^= step;
    }
    keys[threadIdx.x] = key;
}

void sort_keys(unsigned* keys, unsigned num_elements) {
    if (num_elements <= RadixSort::WARP_SIZE) {
        sort_small<<<1, num_elements>>>(keys, num_elements);
        HIP_CHECK(hipGetLastError());
        return;
    }
    if (num_elements > Sorter::SMALL_LIMIT) {
        return;
    }
    sort_small<<<1, num_elements>>>(keys, num_elements);
    HIP_CHECK(hipGetLastError());
}
