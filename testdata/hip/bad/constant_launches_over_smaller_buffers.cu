// Bad: the kernel marks one key per thread with no test (its launches are meant to be exact),
// but the test launches 8 blocks of 32 threads over 250 keys: the last six threads read and
// write past both buffers.
#include <hip/hip_runtime.h>

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
    if (hipMalloc(&found, num_keys * sizeof(bool)) != hipSuccess) return 1;
    if (hipMalloc(&keys, num_keys * sizeof(int)) != hipSuccess) return 1;
    if (hipMemset(keys, 0, num_keys * sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(mark_found, 8, 32, 0, 0, found, keys, -1); // expect: out-of-range-access, out-of-range-access
    if (hipGetLastError() != hipSuccess) return 1;
    if (hipFree(keys) != hipSuccess) return 1;
    return hipFree(found) != hipSuccess;
}
