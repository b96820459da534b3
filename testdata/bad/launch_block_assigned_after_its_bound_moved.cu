// Bad: the length is tested against the block limit, then padded to the allocation's length
// before the block takes it; the test no longer says anything of the padded length, and a
// padding past 1024 values asks for a block no GPU has.
#include <cuda_runtime.h>
#include "cuda_check.h"

#define BLOCK_LIMIT 1024

struct SparseVector {
    double* vals;
    int nnz;
    int capacity;
};

__global__ void scale_values(double* vals, int nnz, double factor) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nnz) vals[i] *= factor;
}

void sparse_vector_scale(SparseVector& vec, double factor, cudaStream_t stream,
                         int block_size = BLOCK_LIMIT) {
    int num_block;
    if (vec.nnz < BLOCK_LIMIT) {
        vec.nnz = vec.capacity;
        block_size = vec.nnz;
        num_block = 1;
    } else {
        num_block = (vec.nnz + block_size - 1) / block_size;
    }
    scale_values<<<num_block, block_size, 0, stream>>>(vec.vals, vec.nnz, factor); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    SparseVector vec{nullptr, 1000, 3000};
    CUDA_CHECK(cudaMalloc(&vec.vals, sizeof(double) * vec.capacity));
    CUDA_CHECK(cudaMemset(vec.vals, 0, sizeof(double) * vec.capacity));
    sparse_vector_scale(vec, 0.5, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(vec.vals));
    return 0;
}
