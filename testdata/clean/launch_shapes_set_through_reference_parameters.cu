// Clean: a cooperative-style launch whose grid, block and dynamic shared bytes a helper sets
// through non-const references (`void pick(uint32_t& blocks, ...)`). The locals are declared
// 0 first; the call writes them, so the launch gives the kernel the bytes it reads.
#include <cstdint>
#include "cuda_check.h"

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
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
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
    CUDA_CHECK(cudaMalloc(&d_queue, blocks * threads * sizeof(int)));
    drain<<<blocks, threads, shared_bytes>>>(d_queue, blocks * threads);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_queue));
    return 0;
}
