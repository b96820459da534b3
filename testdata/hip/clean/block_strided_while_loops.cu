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

// the counter declared before a `for` with no initializer, kept for the tail after it
__global__ void shift_whole_strides(unsigned* hist, unsigned blocks)
{
    __shared__ unsigned s[128];
    const unsigned end = blocks / blockDim.x * blockDim.x;
    unsigned i = threadIdx.x;
    for (; i < end; i += blockDim.x) {
        s[threadIdx.x] = hist[i];
        __syncthreads();
        hist[i] = s[(threadIdx.x + 1) % blockDim.x];
        __syncthreads();
    }
    if (i < blocks) hist[i] += 1;
}

hipError_t reduce_whole_blocks(int num, const float* in, float* out)
{
    shift_whole_strides<<<1, 128>>>(reinterpret_cast<unsigned*>(out), static_cast<unsigned>(num));
    reduce_update<256><<<1, 256>>>(num, in, out);
    return hipGetLastError();
}
