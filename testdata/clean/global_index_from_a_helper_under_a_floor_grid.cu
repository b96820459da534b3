// Clean: a packet matcher in the style of string-matching course projects. The kernel takes its
// global index from a `__device__` helper, and the launch divides the packet count down to whole
// blocks of 100: no thread's index reaches the count the buffers are allocated for.
#include "cuda_check.h"

#define PACKETS 100000
#define PACKET_LENGTH 64

__device__ long get_global_index(void) {
    return blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void count_matches(const char* text, int* counts, int length) {
    long idx = get_global_index();
    counts[idx] = 0;
    for (long i = idx * length; i < (idx + 1) * length; i++) {
        if (text[i] == 'a') counts[idx]++;
    }
}

int main() {
    char* d_text;
    int* d_counts;
    CUDA_CHECK(cudaMalloc(&d_text, PACKETS * PACKET_LENGTH));
    CUDA_CHECK(cudaMalloc(&d_counts, PACKETS * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_text, 'a', PACKETS * PACKET_LENGTH));
    int blockSize = 100;
    int gridSize = PACKETS / blockSize;
    count_matches<<<gridSize, blockSize>>>(d_text, d_counts, PACKET_LENGTH);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_text));
    CUDA_CHECK(cudaFree(d_counts));
    return 0;
}
