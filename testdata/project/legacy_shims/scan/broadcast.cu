// Clean (project): __shfl and __shfl_up are shims of ../warp_helper.h, included from the root
// the build puts on the include path (-I.).
#include <cuda_runtime.h>
#include <warp_helper.h>

__global__ void broadcast_lane_sums(unsigned* data, int n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? data[i] : 0;
    unsigned lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d *= 2) {
        unsigned up = __shfl_up(v, d, 32);
        if (lane >= d) v += up;
    }
    v = __shfl(v, 31, 32);
    if (i < n) data[i] = v;
}

int run_broadcast(unsigned* data, int n) {
    broadcast_lane_sums<<<(n + 255) / 256, 256>>>(data, n);
    return cudaGetLastError() != cudaSuccess;
}
