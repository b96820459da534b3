// Huffman encoding with the code table in dynamic shared memory: row 0 holds each byte's code
// length, row `b + 1` bit `b` of its code. The byte is read through a helper declared to return
// `unsigned char`, so whatever it computes from the thread's position the index stays below 256,
// and the launch gives `(max_code + 1) * 256` bytes. The bit offset added to it is read from the
// table itself, data rather than the thread's position.
#include <cstdio>
#include "cuda_check.h"

__constant__ unsigned char code_length[256];
__constant__ unsigned char code_bits[256 * 32];

__device__ inline unsigned char byte_at(const unsigned* words, unsigned position) {
    return (words[position >> 2] >> ((position & 3U) << 3)) & 0xFFU;
}

__global__ void encode(unsigned size, const unsigned* words, const unsigned* bit_offsets,
                       unsigned* packed, unsigned char max_code) {
    extern __shared__ unsigned char table[];
    table[threadIdx.x] = code_length[threadIdx.x];
    for (unsigned short row = 0; row < max_code; row++) {
        table[((row + 1) << 8) + threadIdx.x] = code_bits[(row << 8) + threadIdx.x];
    }
    __syncthreads();

    unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned stride = blockDim.x * gridDim.x;
    for (; id < size; id += stride) {
        const unsigned start = bit_offsets[id];
        const unsigned end = start + table[byte_at(words, id)];
        for (unsigned bit = start; bit < end; bit++) {
            const unsigned mask = 1u << (31 - (bit & 31U));
            if (table[byte_at(words, id) + ((bit - start + 1) << 8)]) {
                atomicOr(&packed[bit >> 5], mask);
            }
        }
    }
}

void encode_file(unsigned size, const unsigned* d_words, const unsigned* d_offsets,
                 unsigned* d_packed, unsigned char max_code, int blocks) {
    encode<<<blocks, 256, (max_code + 1) * 256>>>(size, d_words, d_offsets, d_packed, max_code);
    CUDA_CHECK(cudaGetLastError());
}
