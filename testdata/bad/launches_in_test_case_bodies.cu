// Bad: the same kernel launched from a Catch2 test case over 250 keys with the grid rounded up
// to whole blocks: the last six threads write past both buffers.
#include <cuda_runtime.h>
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
    REQUIRE(cudaMalloc(&found, num_keys * sizeof(bool)) == cudaSuccess);
    REQUIRE(cudaMalloc(&keys, num_keys * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(keys, 0, num_keys * sizeof(int)) == cudaSuccess);
    mark_found<<<(num_keys + 31) / 32, 32>>>(found, keys, -1);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    REQUIRE(cudaFree(keys) == cudaSuccess);
    REQUIRE(cudaFree(found) == cudaSuccess);
}
