// Bad: the same packet matcher, launched with the block count rounded up (`(PACKETS + 127) /
// 128`): the helper's global index runs past the packet count in the last block, and the kernel
// writes and reads `counts` there with no test.
#include "hip_check.h"

#define PACKETS 100000
#define PACKET_LENGTH 64

__device__ long get_global_index(void) {
    return blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void count_matches(const char* text, int* counts, int length) {
    long idx = get_global_index();
    counts[idx] = 0; // expect: unguarded-thread-index
    for (long i = idx * length; i < (idx + 1) * length; i++) {
        if (text[i] == 'a') counts[idx]++;
    }
}

int main() {
    char* d_text;
    int* d_counts;
    HIP_CHECK(hipMalloc(&d_text, PACKETS * PACKET_LENGTH));
    HIP_CHECK(hipMalloc(&d_counts, PACKETS * sizeof(int)));
    HIP_CHECK(hipMemset(d_text, 'a', PACKETS * PACKET_LENGTH));
    int blockSize = 128;
    int gridSize = (PACKETS + blockSize - 1) / blockSize;
    count_matches<<<gridSize, blockSize>>>(d_text, d_counts, PACKET_LENGTH);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(d_text));
    HIP_CHECK(hipFree(d_counts));
    return 0;
}
