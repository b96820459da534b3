// Clean: the kernel marks one key per thread with no test, and each launch runs exactly as many
// threads as the buffers hold (a constant grid over 256 keys), or tests the count itself.
#include <hip/hip_runtime.h>

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
    if (hipMalloc(&found, num_keys * sizeof(bool)) != hipSuccess) return 1;
    if (hipMalloc(&keys, num_keys * sizeof(int)) != hipSuccess) return 1;
    if (hipMemset(keys, 0, num_keys * sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(mark_found, 8, 32, 0, 0, found, keys, -1);
    hipLaunchKernelGGL(mark_found_checked, 16, 32, 0, 0, found, keys, -1, num_keys);
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipFree(keys) != hipSuccess) return 1;
    return hipFree(found) != hipSuccess;
}
