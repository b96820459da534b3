// Bad: the symbolic phase of a sparse product allocates the result's row pointers into a
// member of the output matrix and a tile array into the input's, and frees the tiles before it
// returns; nothing in the run frees the row pointers.
#include "csr.cuh"

__global__ void count_rows(const int* a_ptr, int* c_ptr, int rows) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows) c_ptr[i] = a_ptr[i + 1] - a_ptr[i];
}

void symbolic(const CSR& A, CSR& B, CSR& C) {
    CUDA_CHECK(cudaMalloc(&C.d_ptr, (A.rows + 1) * sizeof(int))); // expect: device-memory-leak
    CUDA_CHECK(cudaMalloc(&B.d_tile, (A.rows + 1) * sizeof(int)));
    count_rows<<<(A.rows + 255) / 256, 256>>>(A.d_ptr, C.d_ptr, A.rows);
    CUDA_CHECK(cudaGetLastError());
    count_rows<<<(A.rows + 255) / 256, 256>>>(A.d_ptr, B.d_tile, A.rows);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(B.d_tile));
}
