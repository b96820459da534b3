// A single-block reduction over `num` values rounded down to whole blocks with a mask (the block
// is a power of two), written as a `while` loop: every thread makes `end / BLOCK` trips and meets
// each barrier with the whole block.
#include "hip_check.h"

template <unsigned int BLOCK>
__global__ void reduce_update(const int num, const float* in, float* out)
{
    __shared__ float vals[BLOCK];
    const int end = num - (num & (BLOCK - 1));
    int i = threadIdx.x;
    float carry = 0.0f;
    while (i < end) {
        vals[threadIdx.x] = in[i];
        __syncthreads();
        if (threadIdx.x == 0) {
            for (unsigned int k = 0; k < BLOCK; ++k) carry += vals[k];
        }
        __syncthreads();
        i += BLOCK;
    }
    if (threadIdx.x == 0) out[0] = carry;
}

hipError_t reduce_whole_blocks(int num, const float* in, float* out)
{
    reduce_update<256><<<1, 256>>>(num, in, out);
    return hipGetLastError();
}
