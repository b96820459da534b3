// Clean: the structure's release functions, in their own file, free the device arrays of the
// matrix, the row pointers the product allocates into `C.d_ptr` among them.
#include "csr.cuh"

void CSR::d_release_csr() {
    CUDA_CHECK(cudaFree(d_ptr));
}

void CSR::d_release_tile() {
    CUDA_CHECK(cudaFree(d_tile));
}
