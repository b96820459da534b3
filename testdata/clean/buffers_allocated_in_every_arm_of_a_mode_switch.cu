// Clean: a graph traversal that keeps its edge list either in device memory or in managed
// memory. Every arm of the switch over the memory mode allocates the list, and the copy from the
// host runs only under the mode whose arm allocated device memory, so no path passes the pointer
// before it holds an allocation.
#include <cstdlib>
#include <cuda_runtime.h>
#include "cuda_check.h"

typedef enum { GPUMEM = 0, UVM_READONLY = 1, UVM_DIRECT = 2 } impl_type;

__global__ void label_edges(const unsigned long long *edges, unsigned *label, size_t n)
{
    size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (tid < n)
        label[tid] = (unsigned)edges[tid];
}

int run(impl_type mem, const unsigned long long *edges_h, size_t edge_count)
{
    size_t edge_size = edge_count * sizeof(unsigned long long);
    unsigned long long *edges_d;
    unsigned *label_d;
    CUDA_CHECK(cudaMalloc((void **)&label_d, edge_count * sizeof(unsigned)));
    switch (mem) {
    case GPUMEM:
        CUDA_CHECK(cudaMalloc((void **)&edges_d, edge_size));
        break;
    case UVM_READONLY:
        CUDA_CHECK(cudaMallocManaged((void **)&edges_d, edge_size));
        CUDA_CHECK(cudaMemAdvise(edges_d, edge_size, cudaMemAdviseSetReadMostly, 0));
        break;
    case UVM_DIRECT:
        CUDA_CHECK(cudaMallocManaged((void **)&edges_d, edge_size));
        CUDA_CHECK(cudaMemAdvise(edges_d, edge_size, cudaMemAdviseSetAccessedBy, 0));
        break;
    }
    if (mem == GPUMEM)
        CUDA_CHECK(cudaMemcpy(edges_d, edges_h, edge_size, cudaMemcpyHostToDevice));
    else
        memcpy(edges_d, edges_h, edge_size);
    label_edges<<<(edge_count + 255) / 256, 256>>>(edges_d, label_d, edge_count);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(edges_d));
    CUDA_CHECK(cudaFree(label_d));
    return 0;
}
