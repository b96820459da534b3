// Clean: a graph traversal that keeps its edge list either in device memory or in managed
// memory. Every arm of the switch over the memory mode allocates the list, and the copy from the
// host runs only under the mode whose arm allocated device memory, so no path passes the pointer
// before it holds an allocation.
#include <cstdlib>
#include <hip/hip_runtime.h>
#include "hip_check.h"

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
    HIP_CHECK(hipMalloc((void **)&label_d, edge_count * sizeof(unsigned)));
    switch (mem) {
    case GPUMEM:
        HIP_CHECK(hipMalloc((void **)&edges_d, edge_size));
        break;
    case UVM_READONLY:
        HIP_CHECK(hipMallocManaged((void **)&edges_d, edge_size));
        HIP_CHECK(hipMemAdvise(edges_d, edge_size, hipMemAdviseSetReadMostly, 0));
        break;
    case UVM_DIRECT:
        HIP_CHECK(hipMallocManaged((void **)&edges_d, edge_size));
        HIP_CHECK(hipMemAdvise(edges_d, edge_size, hipMemAdviseSetAccessedBy, 0));
        break;
    }
    if (mem == GPUMEM)
        HIP_CHECK(hipMemcpy(edges_d, edges_h, edge_size, hipMemcpyHostToDevice));
    else
        memcpy(edges_d, edges_h, edge_size);
    label_edges<<<(edge_count + 255) / 256, 256>>>(edges_d, label_d, edge_count);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(edges_d));
    HIP_CHECK(hipFree(label_d));
    return 0;
}
