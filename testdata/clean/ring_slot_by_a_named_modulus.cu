// Clean: each thread keeps a ring of K * D + 1 slots in dynamic shared memory, the slot chosen
// by `virtual_id % (K * D + 1)`. A remainder by a named constant is below its value whatever
// the dividend, so `blockDim.x * slot + threadIdx.x` stays inside the (K * D + 1) * blockDim.x
// ints the launch gives.
#include <cstdint>
#include <cuda_runtime.h>
#include "cuda_check.h"

#define D 2
#define K 3

__global__ void probe(const int32_t* keys, int n, const int32_t* table, int mask, int32_t* total) {
    extern __shared__ int ring[];
    const int tid = threadIdx.x + blockIdx.x * blockDim.x;
    const int stride = blockDim.x * gridDim.x;
    const int probes = 32;
    int virtual_id = 0;
    int sum = 0;
    while (virtual_id < probes + K * D) {
        const int slot = virtual_id % (K * D + 1);
        ++virtual_id;
        const int at = tid + stride * (virtual_id - 1);
        if (virtual_id <= probes && at < n) {
            const int idx = blockDim.x * slot + threadIdx.x;
            ring[idx] = table[keys[at] & mask];
            sum += ring[idx];
        }
    }
    atomicAdd(total, sum);
}

void join(const int32_t* keys, int n, const int32_t* table, int mask, int32_t* total, int grid, int block) {
    const int ring_bytes = (K * D + 1) * block * sizeof(int32_t);
    probe<<<grid, block, ring_bytes>>>(keys, n, table, mask, total);
    CUDA_CHECK(cudaGetLastError());
}
