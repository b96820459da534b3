// Bad: the structure's release functions free its tile array but not its row pointers, which
// the product allocates into `C.d_ptr` (spgemm.cu): every product leaks them.
#include "csr.cuh"

void CSR::d_release_tile() {
    CUDA_CHECK(cudaFree(d_tile));
}
