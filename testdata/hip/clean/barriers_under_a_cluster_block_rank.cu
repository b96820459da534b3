// Clean: a thread block cluster (`__cluster_dims__`) whose first block loads the diagonal tile
// and whose blocks take turns by their rank in the cluster: `block_rank()` is one value for the
// whole block, so every thread of a block reaches each barrier or none does.
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>
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
    if (cluster.block_rank() == 0) {
        load_tile(a + blockIdx.x * 1024, tile);
    }
    for (int j = 0; j < panels; ++j) {
        if (j % cluster.num_blocks() == cluster.block_rank()) {
            __syncthreads();
            tile[threadIdx.x] *= 0.5f;
            __syncthreads();
        }
    }
    cluster.sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x];
}

void factor(const float* a, float* out, int panels, hipStream_t stream)
{
    hipLaunchKernelGGL(factor_panel, 4, 256, 0, stream, a, out, panels);
    if (hipGetLastError() != hipSuccess) return;
}
