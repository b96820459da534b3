// Clean: the kernel writes one flag per thread with no test, and its only launch, in a Catch2
// test case named by strings, runs exactly the 256 threads the buffers hold.
#include <hip/hip_runtime.h>
#include <catch2/catch_test_macros.hpp>

__global__ void mark_found(bool* found, const int* keys, int sentinel)
{
    found[threadIdx.x + blockIdx.x * blockDim.x] =
        keys[threadIdx.x + blockIdx.x * blockDim.x] != sentinel;
}

TEST_CASE("shared memory map finds every key", "[map][shared]")
{
    constexpr int num_keys = 256;
    bool* found = nullptr;
    int* keys = nullptr;
    REQUIRE(hipMalloc(&found, num_keys * sizeof(bool)) == hipSuccess);
    REQUIRE(hipMalloc(&keys, num_keys * sizeof(int)) == hipSuccess);
    REQUIRE(hipMemset(keys, 0, num_keys * sizeof(int)) == hipSuccess);
    hipLaunchKernelGGL(mark_found, 8, 32, 0, 0, found, keys, -1);
    REQUIRE(hipGetLastError() == hipSuccess);
    REQUIRE(hipFree(keys) == hipSuccess);
    REQUIRE(hipFree(found) == hipSuccess);
}
