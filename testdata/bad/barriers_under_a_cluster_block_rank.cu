// Bad: the same cluster kernel loading under the thread's rank in the cluster: only the first
// 128 threads of the cluster enter the helper, whose barrier the rest of the block never reaches.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ void load_tile(const float* global, float* tile)
{
    for (int k = threadIdx.x; k < 1024; k += blockDim.x) tile[k] = global[k];
    __syncthreads();
}

__global__ void __cluster_dims__(2, 1, 1) factor_panel(const float* a, float* out, int panels)
{
    __shared__ float tile[1024];
    cg::cluster_group cluster = cg::this_cluster();
    if (cluster.thread_rank() < 128) {
        load_tile(a + blockIdx.x * 1024, tile); // expect: divergent-barrier
    }
    cluster.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

void factor(const float* a, float* out, int panels, cudaStream_t stream)
{
    factor_panel<<<4, 256, 0, stream>>>(a, out, panels);
    if (cudaGetLastError() != cudaSuccess) return;
}
