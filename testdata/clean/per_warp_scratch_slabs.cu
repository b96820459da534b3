// Clean: each warp owns a slab of `max_deg` entries of one scratch buffer, in the style of
// graph-mining kernels. The host sizes the buffer `nblocks * WARPS_PER_BLOCK * max_deg`, clamps
// `nblocks` before allocating and launching with it, and launches `nblocks` blocks of BLK_SZ
// threads: the last warp's slab ends at the buffer's end. The lanes fill the slab below a count
// of at most `max_deg`, and the list is read back at positions no thread index chooses.
#include <cstdint>
#include <cuda_runtime.h>

#define BLK_SZ 256
#define WARP_SIZE 32
#define WARPS_PER_BLOCK (BLK_SZ / WARP_SIZE)

__global__ void list_neighbours(int64_t ne, const int *deg, int *vlists, int max_deg,
                                unsigned long long *total)
{
    __shared__ int list_size[WARPS_PER_BLOCK];
    int thread_id = blockIdx.x * blockDim.x + threadIdx.x;
    int warp_id = thread_id / WARP_SIZE;
    int thread_lane = threadIdx.x & (WARP_SIZE - 1);
    int warp_lane = threadIdx.x / WARP_SIZE;
    int num_warps = WARPS_PER_BLOCK * gridDim.x;
    int *vlist = &vlists[int64_t(warp_id) * int64_t(max_deg)];
    unsigned long long counter = 0;
    for (int64_t e = warp_id; e < ne; e += num_warps) {
        int cnt = min(deg[e], max_deg);
        for (int i = thread_lane; i < cnt; i += WARP_SIZE)
            vlist[i] = i;
        if (thread_lane == 0)
            list_size[warp_lane] = cnt;
        __syncwarp();
        for (int i = 0; i < list_size[warp_lane]; i++)
            counter += vlist[i];
        __syncwarp();
    }
    atomicAdd(total, counter);
}

int main()
{
    int64_t ne = 1 << 20;
    int md = 512;
    size_t nblocks = (ne - 1) / WARPS_PER_BLOCK + 1;
    if (nblocks > 65536)
        nblocks = 65536;
    size_t per_block_vlist_size = WARPS_PER_BLOCK * size_t(md) * sizeof(int);
    int *deg, *frontier_list;
    unsigned long long *d_total;
    if (cudaMalloc(&deg, ne * sizeof(int)) != cudaSuccess) return 1;
    if (cudaMalloc(&frontier_list, nblocks * per_block_vlist_size) != cudaSuccess) return 1;
    if (cudaMalloc(&d_total, sizeof(unsigned long long)) != cudaSuccess) return 1;
    if (cudaMemset(deg, 0, ne * sizeof(int)) != cudaSuccess) return 1;
    if (cudaMemset(d_total, 0, sizeof(unsigned long long)) != cudaSuccess) return 1;
    list_neighbours<<<nblocks, BLK_SZ>>>(ne, deg, frontier_list, md, d_total);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaDeviceSynchronize() != cudaSuccess) return 1;
    if (cudaFree(deg) != cudaSuccess || cudaFree(frontier_list) != cudaSuccess) return 1;
    return cudaFree(d_total) != cudaSuccess;
}
