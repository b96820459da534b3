// Clean: a cooperative-style launch whose grid, block and dynamic shared bytes a helper sets
// through non-const references (`void pick(uint32_t& blocks, ...)`). The locals are declared
// 0 first; the call writes them, so the launch gives the kernel the bytes it reads.
#include <cstdint>
#include "hip_check.h"

__global__ void drain(int* queue, int n) {
    extern __shared__ int SMEM[];
    int& remaining = SMEM[0];
    if (threadIdx.x == 0) remaining = n;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < remaining) queue[i] = 0;
}

static void pick(uint32_t& blocks, uint32_t& threads, uint32_t& shared_bytes) {
    int device = 0, sms = 0;
    HIP_CHECK(hipGetDevice(&device));
    HIP_CHECK(hipDeviceGetAttribute(&sms, hipDevAttrMultiProcessorCount, device));
    blocks = static_cast<uint32_t>(sms);
    threads = 256;
    shared_bytes = sizeof(int) * 3;
}

int main() {
    uint32_t threads = 0;
    uint32_t blocks = 0;
    uint32_t shared_bytes = 0;
    pick(blocks, threads, shared_bytes);
    int* d_queue;
    HIP_CHECK(hipMalloc(&d_queue, blocks * threads * sizeof(int)));
    hipLaunchKernelGGL(drain, blocks, threads, shared_bytes, 0, d_queue, blocks * threads);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_queue));
    return 0;
}
