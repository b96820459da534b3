// The ring has K * D + 1 slots per thread, chosen by `virtual_id % (K * D + 1)`, but the launch
// sizes the dynamic shared memory for K * D of them: the last slot of every thread lies past
// the block's allocation.
#include <cstdint>
#include <hip/hip_runtime.h>
#include "hip_check.h"

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
            ring[idx] = table[keys[at] & mask];  // expect: out-of-range-access
            sum += ring[idx];  // expect: out-of-range-access
        }
    }
    atomicAdd(total, sum);
}

void join(const int32_t* keys, int n, const int32_t* table, int mask, int32_t* total, int grid, int block) {
    const int ring_bytes = K * D * block * sizeof(int32_t);
    hipLaunchKernelGGL(probe, grid, block, ring_bytes, 0, keys, n, table, mask, total);
    HIP_CHECK(hipGetLastError());
}
