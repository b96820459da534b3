// Bad: the block size takes the vector's length on the path that only tests it is not empty;
// a vector longer than 1024 values asks for a block no GPU has, and the launch fails.
#include <cuda_runtime.h>
#include "cuda_check.h"

#define BLOCK_LIMIT 1024

struct SparseVector {
    double* vals;
    int nnz;
};

__global__ void scale_values(double* vals, int nnz, double factor) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nnz) vals[i] *= factor;
}

void sparse_vector_scale(SparseVector& vec, double factor, cudaStream_t stream,
                         int block_size = BLOCK_LIMIT) {
    int num_block;
    if (vec.nnz > 0) {
        block_size = vec.nnz;
        num_block = 1;
    } else {
        num_block = (vec.nnz + block_size - 1) / block_size;
    }
    scale_values<<<num_block, block_size, 0, stream>>>(vec.vals, vec.nnz, factor); // expect: invalid-launch-config
    CUDA_CHECK(cudaGetLastError());
}

int main() {
    SparseVector vec{nullptr, 3000};
    CUDA_CHECK(cudaMalloc(&vec.vals, sizeof(double) * vec.nnz));
    CUDA_CHECK(cudaMemset(vec.vals, 0, sizeof(double) * vec.nnz));
    sparse_vector_scale(vec, 0.5, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(vec.vals));
    return 0;
}
