// Bad: the same kernel launched from a Catch2 test case over 250 keys with the grid rounded up
// to whole blocks: the last six threads write past both buffers.
#include <hip/hip_runtime.h>
#include <catch2/catch_test_macros.hpp>

__global__ void mark_found(bool* found, const int* keys, int sentinel)
{
    found[threadIdx.x + blockIdx.x * blockDim.x] = // expect: unguarded-thread-index
        keys[threadIdx.x + blockIdx.x * blockDim.x] != sentinel;
}

TEST_CASE("shared memory map finds every key", "[map][shared]")
{
    const int num_keys = 250;
    bool* found = nullptr;
    int* keys = nullptr;
    REQUIRE(hipMalloc(&found, num_keys * sizeof(bool)) == hipSuccess);
    REQUIRE(hipMalloc(&keys, num_keys * sizeof(int)) == hipSuccess);
    REQUIRE(hipMemset(keys, 0, num_keys * sizeof(int)) == hipSuccess);
    mark_found<<<(num_keys + 31) / 32, 32>>>(found, keys, -1);
    REQUIRE(hipGetLastError() == hipSuccess);
    REQUIRE(hipFree(keys) == hipSuccess);
    REQUIRE(hipFree(found) == hipSuccess);
}
