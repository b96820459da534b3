// Clean: the kernel marks one key per thread with no test, and each launch runs exactly as many
// threads as the buffers hold (a constant grid over 256 keys), or tests the count itself.
#include <cuda_runtime.h>

__global__ void mark_found(bool* found, const int* keys, int sentinel)
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    found[index] = keys[index] != sentinel;
}

__global__ void mark_found_checked(bool* found, const int* keys, int sentinel, int n)
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) found[index] = keys[index] != sentinel;
}

int check_keys()
{
    constexpr int num_keys = 256;
    bool* found = nullptr;
    int* keys = nullptr;
    if (cudaMalloc(&found, num_keys * sizeof(bool)) != cudaSuccess) return 1;
    if (cudaMalloc(&keys, num_keys * sizeof(int)) != cudaSuccess) return 1;
    if (cudaMemset(keys, 0, num_keys * sizeof(int)) != cudaSuccess) return 1;
    mark_found<<<8, 32>>>(found, keys, -1);
    mark_found_checked<<<16, 32>>>(found, keys, -1, num_keys);
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaFree(keys) != cudaSuccess) return 1;
    return cudaFree(found) != cudaSuccess;
}
