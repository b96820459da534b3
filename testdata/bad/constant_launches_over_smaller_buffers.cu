// Bad: the kernel marks one key per thread with no test (its launches are meant to be exact),
// but the test launches 8 blocks of 32 threads over 250 keys: the last six threads read and
// write past both buffers.
#include <cuda_runtime.h>

__global__ void mark_found(bool* found, const int* keys, int sentinel)
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    found[index] = keys[index] != sentinel;
}

int check_keys()
{
    constexpr int num_keys = 250;
    bool* found = nullptr;
    int* keys = nullptr;
    if (cudaMalloc(&found, num_keys * sizeof(bool)) != cudaSuccess) return 1;
    if (cudaMalloc(&keys, num_keys * sizeof(int)) != cudaSuccess) return 1;
    if (cudaMemset(keys, 0, num_keys * sizeof(int)) != cudaSuccess) return 1;
    mark_found<<<8, 32>>>(found, keys, -1); // expect: out-of-range-access, out-of-range-access
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (cudaFree(keys) != cudaSuccess) return 1;
    return cudaFree(found) != cudaSuccess;
}
